package io.lake.meta.testkit.maintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.FencedException;
import io.lake.meta.GuardedMutation;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.lease.LeaseRecord;
import io.lake.meta.maintenance.FencedTableLocks;
import io.lake.meta.maintenance.MaintenanceAction;
import io.lake.meta.maintenance.MaintenanceLimits;
import io.lake.meta.maintenance.MaintenanceSweeper;
import io.lake.meta.maintenance.TableLock;
import io.lake.meta.maintenance.TableLockProvider;
import io.lake.meta.maintenance.TableMaintainer;
import io.lake.meta.maintenance.TickStatistics;
import io.lake.meta.registry.TableId;
import io.lake.meta.registry.TableRegistration;
import io.lake.meta.registry.TableRegistry;
import io.lake.meta.registry.TableSpec;
import io.lake.meta.registry.TableState;
import io.lake.meta.testkit.PausePoints;
import io.lake.meta.testkit.lease.CountingMetaStore;
import io.lake.meta.testkit.lease.InFlightHooks;
import io.lake.meta.testkit.lease.ManualTicker;
import io.lake.meta.testkit.lock.ManualScheduler;
import io.lake.meta.testkit.registry.RecipeSupport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * The suite of {@link FencedTableLocks}, the sweeper's lock provider for many processes, written
 * once. A backend runs it with one line, on its {@link io.lake.meta.testkit.BackendFactory}:
 *
 * <pre>{@code
 * @Backend(MyBackend.class)
 * class MyStoreFencedTableLocksTest extends FencedTableLocksSuite {}
 * }</pre>
 *
 * <p>Two sweeper processes, node-a and node-b, share the store and the wall clock; each has its own
 * ticker and a {@link ManualScheduler} for its locks' renewals, so a process is "paused" simply by
 * not letting its time pass. A sweeper whose lock was taken over is stopped by the store's check
 * of the lock record's bytes alone: its own clock still says it holds the lock.
 * @since 0.1.0
 */
public abstract class FencedTableLocksSuite extends RecipeSupport {

    /** For backends: {@code @Backend(MyBackend.class) class MyStoreFencedTableLocksTest extends FencedTableLocksSuite {}}. */
    protected FencedTableLocksSuite() {
    }

    private static final TableSpec SPEC = TableSpec.of("s3://lake/t", "iceberg");
    private static final TableId ORDERS = TableId.of("sales", "orders");
    /** A record a lock holder writes besides the registration (such as its maintenance cursor). */
    private static final MetaKey CURSOR = MetaKey.of("job/maintenance/sales-orders");

    private final List<FencedTableLocks> providers = new ArrayList<>();

    @AfterEach
    final void closeProviders() {
        providers.forEach(FencedTableLocks::close);
    }

    /** One sweeper process: its own ticker, and the scheduler its locks renew on. */
    @SuppressWarnings("JavaLangClash") // a nested type, written FencedTableLocksContract.Process outside this class
    protected static final class Process {
        final String id;
        final ManualTicker ticker = new ManualTicker();
        final ManualScheduler scheduler = new ManualScheduler(ticker);

        Process(String id) {
            this.id = id;
        }
    }

    /** Table locks held by {@code process}, writing through {@code via}; closed after the test. */
    protected FencedTableLocks locks(Process process, MetaStore via) {
        FencedTableLocks locks = FencedTableLocks.builder().store(via).holderId(process.id).leaseDuration(LEASE)
                .renewInterval(RENEW).clock(wall).ticker(process.ticker).scheduler(process.scheduler).build();
        providers.add(locks);
        return locks;
    }

    /** A sweeper over the store's registry, pages of 10, a 30 s tick budget. */
    protected MaintenanceSweeper sweeper(TableLockProvider locks, TableMaintainer maintainer) {
        return MaintenanceSweeper.builder().registryStore(store).locks(locks).maintainer(maintainer)
                .limits(MaintenanceLimits.of(Duration.ofSeconds(30), 10)).clock(wall).build();
    }

    /** The registry on the store under test, on the test's wall clock. */
    protected TableRegistry registry() {
        return TableRegistry.over(store, wall);
    }

    /** Registers {@code id} and returns its registration. */
    protected TableRegistration registered(TableId id) {
        return registry().register(id, SPEC.withLocation("s3://lake/" + id)).registration().orElseThrow();
    }

    /** Ticks until a tick wraps (bounded), returning every tick's statistics. */
    protected static List<TickStatistics> onePass(MaintenanceSweeper sweeper) {
        List<TickStatistics> ticks = new ArrayList<>();
        do {
            ticks.add(sweeper.tick());
            assertThat(ticks).as("a pass over the registry ends").hasSizeLessThan(100);
        } while (!ticks.get(ticks.size() - 1).wrapped());
        return ticks;
    }

    /** The lock record of {@code table} as stored; an assertion error when there is none. */
    protected LeaseRecord lockRecord(TableId table) {
        MetaKey key = FencedTableLocks.lockKey(table);
        return LeaseRecord.decode(key, store.get(key).orElseThrow(() -> new AssertionError("no lock record under " + key)));
    }

    /** Lets the lease pass on the wall clock only: every process that is not told otherwise is paused. */
    protected void pauseEveryProcessPastTheLease() {
        wall.advance(LEASE.plus(RENEW));
    }

    @Nested
    class UnderTheLock {

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
                    assertThat(lockRecord(table.id()).epoch()).as("the lock's own epoch").isEqualTo(epoch);
                    return MaintenanceAction.updateSpec(table.spec().withProperty("compactedInEpoch", "" + epoch));
                }

                @Override
                public void cleanUp(TableRegistration tombstone, TableLock lock) {
                }
            };

            onePass(sweeper(locks, stampsItsWork));

            assertThat(epochs).containsExactly(2L);
            assertThat(registry().get(ORDERS).orElseThrow().properties()).containsEntry("compactedInEpoch", "2");
        }

        @Test
        void everyActionIsWrittenThroughItsTablesFencedLock_andEveryLockIsReleased() {
            List<TableId> three = List.of(TableId.of("ns1", "a"), TableId.of("ns1", "b"), TableId.of("ns10", "a"));
            three.forEach(FencedTableLocksSuite.this::registered);
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
            assertThat(counting.guardedWrites()).as("each update guarded by its own table's lock").hasSize(3)
                    .allSatisfy(sent -> assertThat(sent.guardKey())
                            .isEqualTo(FencedTableLocks.lockKey(TableId.fromKey(sent.target().key()))));
            assertThat(counting.plainWrites()).as("only lock records are written unguarded")
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
            assertThat(store.get(FencedTableLocks.lockKey(ORDERS))).as("node-b's lock is left alone").contains(recordOfB);
            assertThat(heldByB.store().create(CURSOR, MetaValue.utf8("b")).isApplied()).as("node-b still holds it").isTrue();

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
            assertThat(locks(new Process("node-b"), store).tryLock(ORDERS).orElseThrow().store()
                    .create(CURSOR, MetaValue.utf8("b")).isApplied()).isTrue();
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

    @Nested
    class LostLock {

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
                    .isInstanceOf(FencedException.class).hasMessageContaining("epoch 1");

            assertThat(maintainer.maintained()).containsExactly(scanned);
            assertThat(registry().get(ORDERS)).as("the registration did not move").contains(scanned);
            GuardedMutation refused = counting.guardedWrites().get(counting.guardedWrites().size() - 1);
            assertThat(refused.target().key()).as("node-a's update reached the store").isEqualTo(ORDERS.key());
            assertThat(refused.guardKey()).isEqualTo(FencedTableLocks.lockKey(ORDERS));
            assertThat(store.get(FencedTableLocks.lockKey(ORDERS))).as("node-b's lock record stands").contains(recordOfB.get(0));
            assertThat(lockRecord(ORDERS).holder()).contains("node-b");
            assertThat(lockRecord(ORDERS).epoch()).isEqualTo(2);
            assertThat(locksOfA.isHeld(ORDERS)).isFalse();
            assertThat(heldByB.get(0).store().create(CURSOR, MetaValue.utf8("b")).isApplied())
                    .as("node-b writes under its lock").isTrue();
        }

        /**
         * node-a's claim of a tombstone's cleanup is in flight (its guard already chosen) when node-a
         * is paused past its lease and node-b takes the table's lock. The claim is refused, so the
         * destructive cleanup never runs in node-a; node-b, holding the lock, cleans up once.
         */
        @Test
        void aDeposedSweeper_neverCleansUpATombstone_andTheNewHolderDoes() throws Exception {
            TableRegistration tombstone = registry().drop(registered(ORDERS)).registration().orElseThrow();
            PausePoints points = new PausePoints();
            FencedTableLocks locksOfA = locks(new Process("node-a"), new InFlightHooks(store, points));
            FencedTableLocks locksOfB = locks(new Process("node-b"), store);
            RecordingMaintainer maintainerOfA = new RecordingMaintainer();
            MaintenanceSweeper sweeperOfA = sweeper(locksOfA, maintainerOfA);
            PausePoints.Pause claim = points.arm(InFlightHooks.BEFORE_GUARDED_WRITE);

            Future<List<TickStatistics>> sweepOfA = inBackground(() -> onePass(sweeperOfA));
            claim.awaitArrival(); // node-a holds the lock, re-read the tombstone, and sent its claim
            pauseEveryProcessPastTheLease();
            TableLock takenOver = locksOfB.tryLock(ORDERS).orElseThrow(() -> new AssertionError("node-b could not take over"));
            claim.release();

            assertThatThrownBy(sweepOfA::get).isInstanceOf(ExecutionException.class)
                    .cause().isInstanceOf(FencedException.class);
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
}
