package com.example.catalog.dynamo;

import io.lake.meta.MetaStore;
import io.lake.meta.dynamo.DynamoMetaStore;
import io.lake.meta.testkit.BackendFactory;
import io.lake.meta.testkit.Capabilities;
import io.lake.meta.testkit.Capability;
import io.lake.meta.testkit.StoreContext;
import io.lake.meta.testkit.SuiteSettings;
import io.lake.meta.testkit.dynamo.DynamoDbServerExtension;

/**
 * DynamoDB, served in-process, as the testkit's suites see it: the factory owns a test server (one
 * per test class), a new table per store, and has the server hold commits for the race tests. The
 * server's client parks its threads while they wait, so the race tests run too.
 */
final class InProcessDynamoBackend implements BackendFactory {

    private final DynamoDbServerExtension dynamo =
            DynamoDbServerExtension.create().start();

    @Override
    public MetaStore open(StoreContext context) {
        String table = dynamo.uniqueTableName("suite");
        MetaStore store = DynamoMetaStore.builder()
                .client(dynamo.client())
                .tableName(table)
                .shardCount(4)
                .createTableIfMissing(true)
                .ticker(context.ticker())
                .build();
        dynamo.pauseCommitsOf(table, context.raceHooks()); // the server calls the hooks inside this table's commits
        return store;
    }

    @Override
    public Capabilities capabilities() {
        return Capabilities.all()
                .without(
                        Capability.PAGES_MATCH_THE_MODEL,
                        "pages go shard by shard: their boundaries differ from the model's, their contents do not");
    }

    /** Fewer generated sequences than the default: each one creates a table. */
    @Override
    public SuiteSettings settings() {
        return SuiteSettings.defaults().withModelEquivalenceSequences(40);
    }

    @Override
    public void close() {
        dynamo.close();
    }
}
