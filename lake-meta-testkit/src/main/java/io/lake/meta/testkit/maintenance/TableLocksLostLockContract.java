package io.lake.meta.testkit.maintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.FencedException;
import io.lake.meta.GuardedMutation;
import io.lake.meta.MetaValue;
import io.lake.meta.maintenance.FencedTableLocks;
import io.lake.meta.maintenance.MaintenanceAction;
import io.lake.meta.maintenance.MaintenanceSweeper;
import io.lake.meta.maintenance.TableLock;
import io.lake.meta.maintenance.TickStatistics;
import io.lake.meta.registry.TableRegistration;
import io.lake.meta.registry.TableState;
import io.lake.meta.testkit.ContractGroup;
import io.lake.meta.testkit.PausePoints;
import io.lake.meta.testkit.lease.CountingMetaStore;
import io.lake.meta.testkit.lease.InFlightHooks;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** Part of {@link FencedTableLocksSuite}: lost lock. */
@ContractGroup("lost lock")
abstract class TableLocksLostLockContract extends TableLocksUnderTheLockContract {

    /**
     * node-a's sweeper holds the table's lock and maintains it, but is paused past its lease
     * meanwhile; node-b takes the lock over and leaves the registration alone. node-a's action
     * would apply on bytes alone (the registration did not change); the lock record's bytes
     * changed, so the store refuses it, and nothing moves.
     */
    @Test
    void aSweeperWhoseLockWasTakenOver_whileItMaintained_writesNothing() {
        TableRegistration scanned = registered(ORDERS);
        CountingMetaStore counting = new CountingMetaStore(store);
        FencedTableLocks locksOfA = locks(new Process("node-a"), counting);
        FencedTableLocks locksOfB = locks(new Process("node-b"), store);
        List<TableLock> heldByB = new ArrayList<>();
        List<MetaValue> recordOfB = new ArrayList<>();
        RecordingMaintainer maintainer = new RecordingMaintainer().answering(r -> {
            pauseEveryProcessPastTheLease();
            heldByB.add(locksOfB.tryLock(ORDERS).orElseThrow(() -> new AssertionError("node-b could not take over")));
            recordOfB.add(store.get(FencedTableLocks.lockKey(ORDERS)).orElseThrow());
            return MaintenanceAction.updateSpec(r.spec().withProperty("compactedBy", "node-a"));
        });

        assertThatThrownBy(() -> onePass(sweeper(locksOfA, maintainer)))
                .isInstanceOf(FencedException.class)
                .hasMessageContaining("epoch 1");

        assertThat(maintainer.maintained()).containsExactly(scanned);
        assertThat(registry().get(ORDERS)).as("the registration did not move").contains(scanned);
        GuardedMutation refused =
                counting.guardedWrites().get(counting.guardedWrites().size() - 1);
        assertThat(refused.target().key())
                .as("node-a's update reached the store")
                .isEqualTo(ORDERS.key());
        assertThat(refused.guardKey()).isEqualTo(FencedTableLocks.lockKey(ORDERS));
        assertThat(store.get(FencedTableLocks.lockKey(ORDERS)))
                .as("node-b's lock record stands")
                .contains(recordOfB.get(0));
        assertThat(lockRecord(ORDERS).holder()).contains("node-b");
        assertThat(lockRecord(ORDERS).epoch()).isEqualTo(2);
        assertThat(locksOfA.isHeld(ORDERS)).isFalse();
        assertThat(heldByB.get(0).store().create(CURSOR, MetaValue.utf8("b")).isApplied())
                .as("node-b writes under its lock")
                .isTrue();
    }

    /**
     * node-a's claim of a tombstone's cleanup is in flight (its guard already chosen) when node-a
     * is paused past its lease and node-b takes the table's lock. The claim is refused, so the
     * destructive cleanup never runs in node-a; node-b, holding the lock, cleans up once.
     */
    @Test
    void aDeposedSweeper_neverCleansUpATombstone_andTheNewHolderDoes() throws Exception {
        TableRegistration tombstone =
                registry().drop(registered(ORDERS)).registration().orElseThrow();
        PausePoints points = new PausePoints();
        FencedTableLocks locksOfA = locks(new Process("node-a"), new InFlightHooks(store, points));
        FencedTableLocks locksOfB = locks(new Process("node-b"), store);
        RecordingMaintainer maintainerOfA = new RecordingMaintainer();
        MaintenanceSweeper sweeperOfA = sweeper(locksOfA, maintainerOfA);
        PausePoints.Pause claim = points.arm(InFlightHooks.BEFORE_GUARDED_WRITE);

        Future<List<TickStatistics>> sweepOfA = inBackground(() -> onePass(sweeperOfA));
        claim.awaitArrival(); // node-a holds the lock, re-read the tombstone, and sent its claim
        pauseEveryProcessPastTheLease();
        TableLock takenOver =
                locksOfB.tryLock(ORDERS).orElseThrow(() -> new AssertionError("node-b could not take over"));
        claim.release();

        assertThatThrownBy(sweepOfA::get)
                .isInstanceOf(ExecutionException.class)
                .cause()
                .isInstanceOf(FencedException.class);
        assertThat(maintainerOfA.cleanedUp()).as("node-a cleaned up nothing").isEmpty();
        assertThat(registry().get(ORDERS)).as("the tombstone did not move").contains(tombstone);
        assertThat(lockRecord(ORDERS).holder()).contains("node-b");

        takenOver.close();
        RecordingMaintainer maintainerOfB = new RecordingMaintainer();
        List<TickStatistics> passOfB = onePass(sweeper(locksOfB, maintainerOfB));

        assertThat(maintainerOfB.cleanedUp()).hasSize(1);
        assertThat(maintainerOfB.cleanedUp().get(0).state()).isEqualTo(TableState.PURGING);
        assertThat(maintainerOfB.cleanedUp().get(0).location()).isEqualTo(tombstone.location());
        assertThat(passOfB.stream().mapToInt(TickStatistics::purged).sum()).isEqualTo(1);
        assertThat(registry().get(ORDERS)).isEmpty();
    }
}
