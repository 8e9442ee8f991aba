package io.lake.meta.dynamo;

import static org.assertj.core.api.Assertions.assertThat;

import io.lake.meta.MetaStore;
import io.lake.meta.spi.RaceHooks;
import io.lake.meta.testkit.MetaStoreContract;
import io.lake.meta.testkit.dynamo.DynamoTestTarget;
import io.lake.meta.testserver.dynamodb.ServerHooks;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The whole MetaStore contract, unchanged, on a fresh table per store (fresh tables, in the
 * migration modes: see {@link ModeFixture}) with the builder's default shard count (16), so most of a family's shards are empty and pages after a token often are too.
 * {@link DynamoTwoShardsContractTest} and {@link DynamoOneShardContractTest} run it again on 2 and
 * 1 shards. The commit happens inside DynamoDB, so {@link RaceHooks#COMMIT_CHECKED} is the test
 * server's {@link ServerHooks#WRITE_CHECKED}: reached after a write's conditions passed, under the
 * server's commit lock, before the write is visible. On a target without that hook (LocalStack, an
 * explicit endpoint) the race tests are skipped with the reason. Watches poll every 20 ms, so the
 * watch tests wait milliseconds, not the default second, for each change.
 */
class DynamoMetaStoreContractTest extends MetaStoreContract {

    private static final DynamoTestTarget TARGET = DynamoTestTarget.shared();


    private static DynamoDbClient client;

    /** The shard count the stores are built with; empty leaves it to the builder's default. */
    protected Optional<Integer> shardCount() {
        return Optional.empty();
    }

    /** The layout mode the stores are opened in. */
    protected ModeFixture.TestedMode mode() {
        return ModeFixture.TestedMode.V2;
    }

    private static synchronized DynamoDbClient client() {
        if (client == null) {
            client = TARGET.clientBuilder().httpClient(new ParkingHttpClient()).build();
        }
        return client;
    }

    @Override
    protected MetaStore openStore(RaceHooks hooks) {
        ModeFixture.Opened opened = ModeFixture.open(client(), TARGET, mode(), shardCount(), "contract");
        MetaStore store = opened.store();
        // the mode and layout the class claims to test
        assertThat(store.toString()).endsWith("layout=" + mode().readLayout(shardCount().orElse(V2Layout.DEFAULT_SHARDS)) + "]");
        // Installed after the tables were set up; only this store's tables are paused.
        TARGET.inProcessServer().ifPresent(server -> server.hooks(new ServerHooks() {
            @Override
            public void reached(String point) {
            }

            @Override
            public void reached(String point, String operation, Set<String> tables) {
                if (ServerHooks.WRITE_CHECKED.equals(point) && opened.touches(tables)) {
                    hooks.reached(RaceHooks.COMMIT_CHECKED);
                }
            }
        }));
        return store;
    }

    @Override
    protected Optional<String> raceHooksUnsupportedReason() {
        return TARGET.pauseUnsupportedReason();
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
