package io.lake.meta.dynamo;

import io.lake.meta.MetaStore;
import io.lake.meta.spi.RaceHooks;
import io.lake.meta.testkit.MetaStoreContract;
import io.lake.meta.testkit.dynamo.DynamoTestTarget;
import io.lake.meta.testserver.dynamodb.ServerHooks;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The whole MetaStore contract, unchanged, on a fresh table per store. The commit happens inside
 * DynamoDB, so {@link RaceHooks#COMMIT_CHECKED} is the test server's
 * {@link ServerHooks#WRITE_CHECKED}: reached after a write's conditions passed, under the server's
 * commit lock, before the write is visible.
 */
class DynamoMetaStoreContractTest extends MetaStoreContract {

    private static final DynamoTestTarget TARGET = DynamoTestTarget.shared();

    /**
     * Two shards, so every group (model equivalence included) crosses shard boundaries and meets
     * empty shard pages. Not the default 16: the PageTokens group checks that the page right after
     * its first token holds entries, which a sharded layout only guarantees when that token stays
     * in a non-empty shard (true for its keys with 2 shards, false with 16: reported to the
     * testkit). Sixteen shards are covered by DynamoCostTest and DynamoTableSetupTest.
     */
    private static final int CONTRACT_SHARDS = 2;
    private static DynamoDbClient client;

    private static synchronized DynamoDbClient client() {
        if (client == null) {
            client = TARGET.clientBuilder().httpClient(new ParkingHttpClient()).build();
        }
        return client;
    }

    @Override
    protected MetaStore openStore(RaceHooks hooks) {
        String table = TARGET.uniqueTableName("contract");
        MetaStore store = DynamoMetaStore.builder()
                .client(client())
                .tableName(table)
                .shardCount(CONTRACT_SHARDS)
                .createTableIfMissing(true)
                .build();
        // Installed after the layout record was written; only this store's table is paused.
        TARGET.inProcessServer().ifPresent(server -> server.hooks(new ServerHooks() {
            @Override
            public void reached(String point) {
            }

            @Override
            public void reached(String point, String operation, Set<String> tables) {
                if (ServerHooks.WRITE_CHECKED.equals(point) && tables.contains(table)) {
                    hooks.reached(RaceHooks.COMMIT_CHECKED);
                }
            }
        }));
        return store;
    }

    /** Pages go shard by shard, so their boundaries differ from the model's; full contents must still match. */
    @Override
    protected boolean pagesMatchTheModelExactly() {
        return false;
    }

    @AfterAll
    static synchronized void closeClient() {
        TARGET.inProcessServer().ifPresent(server -> server.hooks(ServerHooks.NONE));
        if (client != null) {
            client.close();
            client = null;
        }
    }
}
