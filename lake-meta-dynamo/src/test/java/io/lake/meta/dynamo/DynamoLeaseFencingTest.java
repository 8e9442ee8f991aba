package io.lake.meta.dynamo;

import io.lake.meta.MetaStore;
import io.lake.meta.testkit.dynamo.DynamoTestTarget;
import io.lake.meta.testkit.lease.LeaseFencingContract;
import org.junit.jupiter.api.AfterAll;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** The lease and fencing suite on the DynamoDB store, one fresh table per test. */
class DynamoLeaseFencingTest extends LeaseFencingContract {

    private static final DynamoTestTarget TARGET = DynamoTestTarget.shared();
    private static DynamoDbClient client;

    private static synchronized DynamoDbClient client() {
        if (client == null) {
            client = TARGET.clientBuilder().build();
        }
        return client;
    }

    @Override
    protected MetaStore openStore() {
        return DynamoMetaStore.builder()
                .client(client())
                .tableName(TARGET.uniqueTableName("lease"))
                .createTableIfMissing(true)
                .build();
    }

    @AfterAll
    static synchronized void closeClient() {
        if (client != null) {
            client.close();
            client = null;
        }
    }
}
