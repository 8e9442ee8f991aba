package io.lake.meta.dynamo;

import static org.assertj.core.api.Assertions.assertThat;

import io.lake.meta.MetaStore;
import io.lake.meta.spi.RaceHooks;
import io.lake.meta.testkit.BackendFactory;
import io.lake.meta.testkit.Capabilities;
import io.lake.meta.testkit.Capability;
import io.lake.meta.testkit.StoreContext;
import io.lake.meta.testkit.SuiteSettings;
import io.lake.meta.testkit.dynamo.DynamoTestTarget;
import io.lake.meta.testserver.dynamodb.ServerHooks;
import java.util.Optional;
import java.util.Set;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The DynamoDB store as the testkit's suites see it, in one layout mode on one shard count: fresh
 * tables per store (in the migration modes, tables as an operator gets there: see {@link ModeFixture}),
 * watches polling every 20 ms, on the {@linkplain DynamoTestTarget#shared() shared target}, through
 * one client per factory whose calls park while they wait ({@code ParkingHttpClient}).
 *
 * <p>The commit happens inside DynamoDB, so {@link RaceHooks#COMMIT_CHECKED} is the test server's
 * {@link ServerHooks#WRITE_CHECKED}: reached after a write's conditions passed, under the server's
 * commit lock, before the write is visible. On a target without that hook (LocalStack, an explicit
 * endpoint) the backend is declared without {@link Capability#RACE_HOOKS}, with the target's reason.
 * Each store is checked to read the layout this factory claims, so a configuration is what its
 * name says.
 */
final class DynamoBackend implements BackendFactory {

    private static final DynamoTestTarget TARGET = DynamoTestTarget.shared();
    /** Model-equivalence sequences per layout other than the default one. */
    static final String OTHER_LAYOUTS_PROPERTY = "lake.meta.dynamo.layoutModelSequences";

    private final ModeFixture.TestedMode mode;
    private final Optional<Integer> shards;
    private DynamoDbClient client;

    /** Mode V2 on the builder's default shard count (16): the store most users open, and the recipe suites' backend. */
    DynamoBackend() {
        this(ModeFixture.TestedMode.V2, Optional.empty());
    }

    private DynamoBackend(ModeFixture.TestedMode mode, Optional<Integer> shards) {
        this.mode = mode;
        this.shards = shards;
    }

    /** {@code mode} on a v2 table of the builder's default shard count (16), where the mode has one. */
    static DynamoBackend defaultShards(ModeFixture.TestedMode mode) {
        return new DynamoBackend(mode, Optional.empty());
    }

    /** {@code mode} on a v2 table of {@code shards} shards. */
    static DynamoBackend shards(ModeFixture.TestedMode mode, int shards) {
        if (mode == ModeFixture.TestedMode.V1) {
            throw new IllegalArgumentException("mode V1 has no v2 table to shard");
        }
        return new DynamoBackend(mode, Optional.of(shards));
    }

    private synchronized DynamoDbClient client() {
        if (client == null) {
            client = TARGET.newParkingClient();
        }
        return client;
    }

    @Override
    public MetaStore open(StoreContext context) {
        ModeFixture.Opened opened = ModeFixture.open(client(), TARGET, mode, shards, "suite");
        MetaStore store = opened.store();
        assertThat(store.toString())
                .as("the layout %s claims", this)
                .endsWith("layout=" + mode.readLayout(shards.orElse(V2Layout.DEFAULT_SHARDS)) + "]");
        // Installed after the tables were set up; only this store's tables are paused.
        RaceHooks hooks = context.raceHooks();
        TARGET.inProcessServer()
                .ifPresent(server -> server.hooks(new ServerHooks() {
                    @Override
                    public void reached(String point) {}

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
    public Capabilities capabilities() {
        Capabilities capabilities = Capabilities.all()
                .without(
                        Capability.PAGES_MATCH_THE_MODEL,
                        "pages go shard by shard (in mode V1: filtered Scans),"
                                + " so their boundaries differ from the model's; their contents do not");
        Optional<String> unpausable = TARGET.pauseUnsupportedReason();
        return unpausable.isPresent() ? capabilities.without(Capability.RACE_HOOKS, unpausable.get()) : capabilities;
    }

    /**
     * The store most users open (V2 on the default shards) runs the suite's full model-equivalence
     * run; the other seven layouts of the contract's matrix run as many sequences as the system
     * property {@value #OTHER_LAYOUTS_PROPERTY} says (50 in the default build, the suite's 150 with
     * {@code -Ptorture} or outside Maven): every sequence opens a table, and eight full runs took
     * half of this module's build.
     */
    @Override
    public SuiteSettings settings() {
        if (mode == ModeFixture.TestedMode.V2 && shards.isEmpty()) {
            return SuiteSettings.defaults();
        }
        return SuiteSettings.defaults()
                .withModelEquivalenceSequences(
                        Integer.getInteger(OTHER_LAYOUTS_PROPERTY, SuiteSettings.DEFAULT_MODEL_EQUIVALENCE_SEQUENCES));
    }

    @Override
    public synchronized void close() {
        TARGET.inProcessServer().ifPresent(server -> server.hooks(ServerHooks.NONE));
        if (client != null) {
            client.close();
            client = null;
        }
    }

    /** The configuration, as reports name each run of a suite: {@code V2 on 16 shards}, {@code V1}. */
    @Override
    public String toString() {
        int count = shards.orElse(V2Layout.DEFAULT_SHARDS);
        return mode == ModeFixture.TestedMode.V1 ? "V1" : mode + " on " + count + (count == 1 ? " shard" : " shards");
    }
}
