package com.example.catalog.dynamo;

import io.lake.meta.MetaStore;
import io.lake.meta.dynamo.DynamoMetaStore;
import io.lake.meta.spi.RaceHooks;
import io.lake.meta.testkit.MetaStoreContract;
import io.lake.meta.testkit.dynamo.DynamoDbServerExtension;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The whole MetaStore contract on DynamoDB, in-process: the extension starts the test server and
 * hands out a client whose threads park while they wait, so the race tests run too.
 */
class InProcessDynamoContractTest extends MetaStoreContract {

    @RegisterExtension
    static final DynamoDbServerExtension DYNAMO = DynamoDbServerExtension.create();

    @Override
    protected MetaStore openStore(RaceHooks hooks) {
        String table = DYNAMO.uniqueTableName("contract");
        MetaStore store = DynamoMetaStore.builder()
                .client(DYNAMO.client())
                .tableName(table)
                .shardCount(4)
                .createTableIfMissing(true)
                .build();
        DYNAMO.pauseCommitsOf(table, hooks);   // the server calls the hooks inside this table's commits
        return store;
    }

    /** Pages go shard by shard: their boundaries differ from the model's, their contents do not. */
    @Override
    protected boolean pagesMatchTheModelExactly() {
        return false;
    }

    /** Fewer generated sequences than the default: each one creates a table. */
    @Override
    protected int modelEquivalenceSequences() {
        return 40;
    }
}
