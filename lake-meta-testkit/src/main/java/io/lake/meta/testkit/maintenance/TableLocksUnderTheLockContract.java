package io.lake.meta.testkit.maintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.FencedException;
import io.lake.meta.MetaValue;
import io.lake.meta.lease.LeaseRecord;
import io.lake.meta.maintenance.FencedTableLocks;
import io.lake.meta.maintenance.MaintenanceAction;
import io.lake.meta.maintenance.MaintenanceSweeper;
import io.lake.meta.maintenance.TableLock;
import io.lake.meta.maintenance.TableMaintainer;
import io.lake.meta.maintenance.TickStatistics;
import io.lake.meta.registry.TableId;
import io.lake.meta.registry.TableRegistration;
import io.lake.meta.testkit.ContractGroup;
import io.lake.meta.testkit.lease.CountingMetaStore;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Part of {@link FencedTableLocksSuite}: under the lock. */
@ContractGroup("under the lock")
abstract class TableLocksUnderTheLockContract extends TableLocksSupport {

    @Test
    void theMaintainerReceivesTheLockItRunsUnder_withItsFencingEpoch() {
        registered(ORDERS);
        FencedTableLocks locks = locks(new Process("node-a"), store);
        onePass(sweeper(locks, new RecordingMaintainer())); // epoch 1 comes and goes
        List<Long> epochs = new java.util.concurrent.CopyOnWriteArrayList<>();
        TableMaintainer stampsItsWork = new TableMaintainer() {
            @Override
            public MaintenanceAction maintain(TableRegistration table, TableLock lock) {
                long epoch = lock.epoch().orElseThrow();
                epochs.add(epoch);
                assertThat(lockRecord(table.id()).epoch())
                        .as("the lock's own epoch")
                        .isEqualTo(epoch);
                return MaintenanceAction.updateSpec(table.spec().withProperty("compactedInEpoch", "" + epoch));
            }

            @Override
            public void cleanUp(TableRegistration tombstone, TableLock lock) {}
        };

        onePass(sweeper(locks, stampsItsWork));

        assertThat(epochs).containsExactly(2L);
        assertThat(registry().get(ORDERS).orElseThrow().properties()).containsEntry("compactedInEpoch", "2");
    }

    @Test
    void everyActionIsWrittenThroughItsTablesFencedLock_andEveryLockIsReleased() {
        List<TableId> three = List.of(TableId.of("ns1", "a"), TableId.of("ns1", "b"), TableId.of("ns10", "a"));
        three.forEach(this::registered);
        CountingMetaStore counting = new CountingMetaStore(store);
        FencedTableLocks locks = locks(new Process("node-a"), counting);
        RecordingMaintainer maintainer = new RecordingMaintainer()
                .answering(r -> MaintenanceAction.updateSpec(r.spec().withProperty("compactedBy", "node-a")));

        List<TickStatistics> pass = onePass(sweeper(locks, maintainer));

        assertThat(pass.stream().mapToInt(TickStatistics::updated).sum()).isEqualTo(3);
        for (TableId table : three) {
            TableRegistration after = registry().get(table).orElseThrow();
            assertThat(after.generation()).isEqualTo(2);
            assertThat(after.properties()).containsEntry("compactedBy", "node-a");
            assertThat(lockRecord(table).isVacant()).as("released: %s", table).isTrue();
            assertThat(lockRecord(table).epoch()).isEqualTo(1);
            assertThat(locks.isHeld(table)).isFalse();
        }
        assertThat(counting.guardedWrites())
                .as("each update guarded by its own table's lock")
                .hasSize(3)
                .allSatisfy(sent -> assertThat(sent.guardKey())
                        .isEqualTo(FencedTableLocks.lockKey(
                                TableId.fromKey(sent.target().key()))));
        assertThat(counting.plainWrites())
                .as("only lock records are written unguarded")
                .allSatisfy(m -> assertThat(m.key().family()).isEqualTo(FencedTableLocks.LOCK_FAMILY));
        assertThat(counting.transactions()).isEmpty();
    }

    @Test
    void aTableLockedByAnotherSweeper_isSkipped_andMaintainedOnceItIsReleased() {
        registered(ORDERS);
        FencedTableLocks locksOfA = locks(new Process("node-a"), store);
        FencedTableLocks locksOfB = locks(new Process("node-b"), store);
        RecordingMaintainer maintainer = new RecordingMaintainer();
        MaintenanceSweeper sweeperOfA = sweeper(locksOfA, maintainer);
        TableLock heldByB = locksOfB.tryLock(ORDERS).orElseThrow();
        MetaValue recordOfB = store.get(FencedTableLocks.lockKey(ORDERS)).orElseThrow();

        List<TickStatistics> skipped = onePass(sweeperOfA);

        assertThat(skipped.stream().mapToInt(TickStatistics::skipped).sum()).isEqualTo(1);
        assertThat(maintainer.maintained()).isEmpty();
        assertThat(store.get(FencedTableLocks.lockKey(ORDERS)))
                .as("node-b's lock is left alone")
                .contains(recordOfB);
        assertThat(heldByB.store().create(CURSOR, MetaValue.utf8("b")).isApplied())
                .as("node-b still holds it")
                .isTrue();

        heldByB.close();
        onePass(sweeperOfA);

        assertThat(maintainer.maintained()).extracting(TableRegistration::id).containsExactly(ORDERS);
        assertThat(lockRecord(ORDERS).epoch()).as("a new hold, past node-b's").isEqualTo(2);
    }

    @SuppressWarnings("try") // a resource held for its block is what the block relies on
    @Test
    void oneProvider_neverHandsOutATableItHoldsAgain_andDoesNoIoToSaySo() {
        CountingMetaStore counting = new CountingMetaStore(store);
        FencedTableLocks locks = locks(new Process("node-a"), counting);
        TableLock first = locks.tryLock(ORDERS).orElseThrow();
        int readsBefore = counting.reads();

        assertThat(locks.tryLock(ORDERS)).isEmpty();
        assertThat(counting.reads()).isEqualTo(readsBefore);
        assertThat(locks.isHeld(ORDERS)).isTrue();

        first.close();
        first.close();
        assertThat(locks.isHeld(ORDERS)).isFalse();
        try (TableLock second = locks.tryLock(ORDERS).orElseThrow()) {
            assertThat(lockRecord(ORDERS).epoch()).isEqualTo(2);
            assertThat(lockRecord(ORDERS).holder()).contains("node-a");
        }
    }

    @Test
    void closingTheProvider_releasesItsLocks_andRefusesNewOnes() {
        FencedTableLocks locksOfA = locks(new Process("node-a"), store);
        TableLock held = locksOfA.tryLock(ORDERS).orElseThrow();

        locksOfA.close();

        assertThat(lockRecord(ORDERS).isVacant()).isTrue();
        assertThatThrownBy(() -> held.store().create(CURSOR, MetaValue.utf8("a")))
                .isInstanceOf(FencedException.class);
        assertThatThrownBy(() -> locksOfA.tryLock(ORDERS)).isInstanceOf(IllegalStateException.class);
        assertThat(locks(new Process("node-b"), store)
                        .tryLock(ORDERS)
                        .orElseThrow()
                        .store()
                        .create(CURSOR, MetaValue.utf8("b"))
                        .isApplied())
                .isTrue();
        assertThat(lockRecord(ORDERS).epoch()).isEqualTo(2);
        assertThat(store.get(CURSOR)).contains(MetaValue.utf8("b"));
    }

    @Test
    void aLongMaintenance_keepsItsLock_throughRenewalsOnTheProvidersScheduler() {
        registered(ORDERS);
        Process a = new Process("node-a");
        FencedTableLocks locksOfA = locks(a, store);
        FencedTableLocks locksOfB = locks(new Process("node-b"), store);
        List<String> seenDuringMaintenance = new ArrayList<>();
        RecordingMaintainer maintainer = new RecordingMaintainer().answering(r -> {
            for (int i = 0; i < 5; i++) { // 15 s of work, past the 10 s lease: node-a's renewals run
                wall.advance(RENEW);
                a.ticker.advance(RENEW);
                a.scheduler.runDue();
            }
            LeaseRecord record = lockRecord(ORDERS);
            seenDuringMaintenance.add(record.holder().orElse("none") + "@" + record.epoch());
            seenDuringMaintenance.add(locksOfB.tryLock(ORDERS).isPresent() ? "node-b took it" : "node-b refused");
            return MaintenanceAction.updateSpec(r.spec().withProperty("compactedBy", "node-a"));
        });

        onePass(sweeper(locksOfA, maintainer));

        assertThat(seenDuringMaintenance).containsExactly("node-a@1", "node-b refused");
        assertThat(registry().get(ORDERS).orElseThrow().properties()).containsEntry("compactedBy", "node-a");
        assertThat(lockRecord(ORDERS).isVacant()).isTrue();
    }
}
