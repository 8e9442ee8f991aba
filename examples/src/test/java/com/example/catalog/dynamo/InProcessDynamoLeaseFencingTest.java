package com.example.catalog.dynamo;

import io.lake.meta.MetaStore;
import io.lake.meta.dynamo.DynamoMetaStore;
import io.lake.meta.testkit.dynamo.DynamoDbServerExtension;
import io.lake.meta.testkit.lease.LeaseFencingContract;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The lease and fencing suite on DynamoDB, in-process. */
class InProcessDynamoLeaseFencingTest extends LeaseFencingContract {

    @RegisterExtension
    static final DynamoDbServerExtension DYNAMO = DynamoDbServerExtension.create();

    @Override
    protected MetaStore openStore() {
        return DynamoMetaStore.builder()
                .client(DYNAMO.client())
                .tableName(DYNAMO.uniqueTableName("lease"))
                .createTableIfMissing(true)
                .build();
    }
}
