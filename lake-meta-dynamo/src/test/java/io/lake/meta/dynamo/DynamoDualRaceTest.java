package io.lake.meta.dynamo;

import static org.assertj.core.api.Assertions.assertThat;

import io.lake.meta.GuardedMutation;
import io.lake.meta.GuardedResult;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.Mutation;
import io.lake.meta.WriteResult;
import io.lake.meta.testkit.PausePoints;
import io.lake.meta.testserver.dynamodb.DynamoDbTestServer;
import io.lake.meta.testserver.dynamodb.ServerHooks;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * Races of dual writes, proven by ordering: one write is held inside the in-process server after
 * its conditions passed ({@link ServerHooks#WRITE_CHECKED}, with the commit lock held) while a
 * guarded dual write is sent; a stale guard or a concurrent target change must move neither copy.
 * A race test: it needs the in-process server's hook, and is skipped elsewhere.
 */
class DynamoDualRaceTest extends DynamoTestSupport {

    private static final String HELD = "held";
    private static final MetaKey GUARD = MetaKey.of("lease/leader");
    private static final MetaKey K = MetaKey.of("tbl/ns1/orders");
    private static final MetaValue LEASE_A = MetaValue.utf8("holder=a;epoch=1");
    private static final MetaValue LEASE_B = MetaValue.utf8("holder=b;epoch=2");
    private static final MetaValue V0 = MetaValue.utf8("v0");
    private static final MetaValue VA = MetaValue.utf8("vA");
    private static final MetaValue VB = MetaValue.utf8("vB");

    private DynamoDbTestServer server;
    private final PausePoints points = new PausePoints();
    private MetaStore store;
    private CopyReader copies;

    private void open(ModeFixture.TestedMode mode) {
        server = TARGET.requireInProcessServer();
        DynamoDbClient client = track(TARGET.newParkingClient());
        ModeFixture.Opened opened = ModeFixture.open(client, TARGET, mode, Optional.of(2), "dual-race");
        store = track(opened.store());
        copies = new CopyReader(client, opened.legacyTable(), opened.table(), new V2Layout(2));
        store.create(GUARD, LEASE_A);
        store.create(K, V0);
        server.hooks(new ServerHooks() {
            @Override
            public void reached(String point) {}

            @Override
            public void reached(String point, String operation, Set<String> tables) {
                if (ServerHooks.WRITE_CHECKED.equals(point) && opened.touches(tables)) {
                    points.reached(HELD);
                }
            }
        });
    }

    @AfterEach
    void removeHooks() {
        if (server != null) {
            server.hooks(ServerHooks.NONE);
        }
    }

    private void assertCopies(MetaKey key, MetaValue expected) {
        assertThat(copies.legacyCopy(key)).as("legacy copy of %s", key).contains(expected);
        assertThat(copies.v2Copy(key)).as("v2 copy of %s", key).contains(expected);
    }

    @ParameterizedTest
    @EnumSource(
            value = ModeFixture.TestedMode.class,
            names = {"DUAL_V1_AUTHORITY", "DUAL_V2_AUTHORITY"})
    void aGuardedWriteSentWhileItsGuardIsBeingReplaced_isRejected_andMovesNeitherCopy(ModeFixture.TestedMode mode)
            throws Exception {
        open(mode);
        PausePoints.Pause pause = points.arm(HELD);
        Racing<WriteResult> takeover = Racing.start("takeover", () -> store.update(GUARD, LEASE_A, LEASE_B));
        pause.awaitArrival();

        Racing<GuardedResult> staleLeader = Racing.start(
                        "stale leader",
                        () -> store.applyGuarded(new GuardedMutation(GUARD, LEASE_A, Mutation.update(K, V0, VA))))
                .awaitParkedOrDone();
        assertThat(staleLeader.isDone())
                .as("the guarded write finished while the takeover was held")
                .isFalse();
        pause.release();

        assertThat(takeover.result()).isEqualTo(WriteResult.applied());
        assertThat(staleLeader.result()).isEqualTo(GuardedResult.guardRejected());
        assertCopies(GUARD, LEASE_B);
        assertCopies(K, V0);
    }

    @ParameterizedTest
    @EnumSource(
            value = ModeFixture.TestedMode.class,
            names = {"DUAL_V1_AUTHORITY", "DUAL_V2_AUTHORITY"})
    void aGuardedWriteSentWhileItsTargetIsBeingChanged_conflicts_andMovesNeitherCopyAgain(ModeFixture.TestedMode mode)
            throws Exception {
        open(mode);
        PausePoints.Pause pause = points.arm(HELD);
        Racing<WriteResult> writer = Racing.start("target writer", () -> store.update(K, V0, VB));
        pause.awaitArrival();

        Racing<GuardedResult> leader = Racing.start(
                        "leader",
                        () -> store.applyGuarded(new GuardedMutation(GUARD, LEASE_A, Mutation.update(K, V0, VA))))
                .awaitParkedOrDone();
        assertThat(leader.isDone())
                .as("the guarded write finished while the target's write was held")
                .isFalse();
        pause.release();

        assertThat(writer.result()).isEqualTo(WriteResult.applied());
        assertThat(leader.result()).isEqualTo(GuardedResult.targetConflict(WriteResult.conflict(Optional.of(VB))));
        assertCopies(K, VB);
        assertCopies(GUARD, LEASE_A);
    }
}
