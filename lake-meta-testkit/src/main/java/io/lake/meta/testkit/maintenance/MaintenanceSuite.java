package io.lake.meta.testkit.maintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.KeyPrefix;
import io.lake.meta.MetaStore;
import io.lake.meta.maintenance.MaintenanceAction;
import io.lake.meta.maintenance.MaintenanceLimits;
import io.lake.meta.maintenance.MaintenanceSweeper;
import io.lake.meta.maintenance.TableLock;
import io.lake.meta.maintenance.TableMaintainer;
import io.lake.meta.maintenance.TickStatistics;
import io.lake.meta.recipes.TypedPage;
import io.lake.meta.recipes.TypedPageRequest;
import io.lake.meta.registry.TableId;
import io.lake.meta.registry.TableRegistration;
import io.lake.meta.registry.TableRegistry;
import io.lake.meta.registry.TableSpec;
import io.lake.meta.registry.TableState;
import io.lake.meta.testkit.FaultyStore;
import io.lake.meta.testkit.FaultyStore.Call;
import io.lake.meta.testkit.FaultyStore.Fault;
import io.lake.meta.testkit.PausePoints;
import io.lake.meta.testkit.registry.RecipeSupport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * The paged maintenance suite, written once. A backend runs it with one line, on its
 * {@link io.lake.meta.testkit.BackendFactory}:
 *
 * <pre>{@code
 * @Backend(MyBackend.class)
 * class MyStoreMaintenanceTest extends MaintenanceSuite {}
 * }</pre>
 *
 * <p>The sweeper's locks are {@link InProcessTableLocks}; a test holds the sweeper inside a lock at
 * {@link InProcessTableLocks#LOCKED} to change the registry between the scan and the re-read.
 * @since 0.1.0
 */
public abstract class MaintenanceSuite extends RecipeSupport {

    /** For backends: {@code @Backend(MyBackend.class) class MyStoreMaintenanceTest extends MaintenanceSuite {}}. */
    protected MaintenanceSuite() {
    }

    private static final TableSpec SPEC = TableSpec.of("s3://lake/t", "iceberg");

    /** A registry over the store under test, on the suite's wall clock. */
    protected TableRegistry registry() {
        return TableRegistry.over(store, wall);
    }

    /** Registers {@code id} with the suite's spec and returns its registration. */
    protected TableRegistration registered(TableId id) {
        return registry().register(id, SPEC.withLocation("s3://lake/" + id)).registration().orElseThrow();
    }

    /** A sweeper over {@code registryStore} with the given locks, maintainer and page size. */
    protected MaintenanceSweeper sweeper(MetaStore registryStore, InProcessTableLocks locks, TableMaintainer maintainer,
            int pageSize) {
        return MaintenanceSweeper.builder().registryStore(registryStore).locks(locks).maintainer(maintainer)
                .limits(MaintenanceLimits.of(Duration.ofSeconds(30), pageSize)).clock(wall).build();
    }

    /** Ticks until a tick wraps (bounded), returning every tick's statistics. */
    private static List<TickStatistics> tickThroughOnePass(MaintenanceSweeper sweeper) {
        List<TickStatistics> ticks = new ArrayList<>();
        do {
            ticks.add(sweeper.tick());
            assertThat(ticks).as("a pass over the registry ends").hasSizeLessThan(100);
        } while (!ticks.get(ticks.size() - 1).wrapped());
        return ticks;
    }

    @Nested
    class Paging {

        @Test
        void aTick_readsOnePage_andOnePointReadPerCandidate_neverTheWholeRegistry() {
            List<TableId> five = List.of(TableId.of("ns1", "a"), TableId.of("ns1", "b"), TableId.of("ns2", "c"),
                    TableId.of("ns2", "d"), TableId.of("ns3", "e"));
            five.forEach(MaintenanceSuite.this::registered);
            ReadCountingStore counting = new ReadCountingStore(store);
            RecordingMaintainer maintainer = new RecordingMaintainer();
            MaintenanceSweeper sweeper = sweeper(counting, new InProcessTableLocks(counting), maintainer, 2);

            List<TickStatistics> pass = new ArrayList<>();
            do {
                counting.reset();
                TickStatistics tick = sweeper.tick();
                pass.add(tick);
                assertThat(counting.pages()).as("tick %d reads exactly one page, of the whole registry family",
                        pass.size()).containsExactly(KeyPrefix.of("tbl/"));
                assertThat(tick.scanned()).isLessThanOrEqualTo(2);
                assertThat(counting.pointReads()).as("one re-read per candidate").hasSize(tick.scanned());
                assertThat(counting.batchReads()).isZero();
                assertThat(counting.writes()).as("the token lives in memory: a tick that maintains nothing writes nothing")
                        .isZero();
                assertThat(pass).hasSizeLessThan(100);
            } while (!pass.get(pass.size() - 1).wrapped());

            assertThat(maintainer.maintained()).extracting(TableRegistration::id).containsExactlyInAnyOrderElementsOf(five);
            assertThat(pass.stream().mapToInt(TickStatistics::scanned).sum()).isEqualTo(5);
            assertThat(pass.stream().filter(TickStatistics::wrapped)).hasSize(1);
        }

        @Test
        void afterTheLastPage_theNextTickWrapsAroundToTheFirst() {
            List<TableId> three = List.of(TableId.of("ns", "a"), TableId.of("ns", "b"), TableId.of("ns", "c"));
            three.forEach(MaintenanceSuite.this::registered);
            RecordingMaintainer maintainer = new RecordingMaintainer();
            MaintenanceSweeper sweeper = sweeper(store, new InProcessTableLocks(store), maintainer, 2);

            tickThroughOnePass(sweeper);
            tickThroughOnePass(sweeper);

            assertThat(maintainer.maintained()).extracting(TableRegistration::id).hasSize(6)
                    .isSubsetOf(three);
            assertThat(maintainer.maintained().subList(3, 6)).extracting(TableRegistration::id)
                    .containsExactlyInAnyOrderElementsOf(three);
        }

        @SuppressWarnings("try") // a resource held for its block is what the block relies on
        @Test
        void aTableLockedElsewhere_isSkipped_withoutARead() {
            TableId busy = TableId.of("ns", "busy");
            registered(busy);
            ReadCountingStore counting = new ReadCountingStore(store);
            InProcessTableLocks locks = new InProcessTableLocks(counting);
            RecordingMaintainer maintainer = new RecordingMaintainer();
            MaintenanceSweeper sweeper = sweeper(counting, locks, maintainer, 10);

            try (TableLock elsewhere = locks.holdElsewhere(busy)) {
                List<TickStatistics> pass = tickThroughOnePass(sweeper);
                assertThat(pass.stream().mapToInt(TickStatistics::skipped).sum()).isEqualTo(1);
            }

            assertThat(maintainer.maintained()).isEmpty();
            assertThat(counting.pointReads()).isEmpty();
        }
    }

    @Nested
    class ReReadUnderTheLock {

        @Test
        void aRegistrationReplacedAfterTheScan_whileTheLockIsHeld_reachesTheMaintainerOnlyAsTheReplacement()
                throws Exception {
            TableId orders = TableId.of("sales", "orders");
            TableRegistration scanned = registered(orders);
            PausePoints points = new PausePoints();
            RecordingMaintainer maintainer = new RecordingMaintainer();
            MaintenanceSweeper sweeper = sweeper(store, new InProcessTableLocks(store, points), maintainer, 10);
            PausePoints.Pause locked = points.arm(InProcessTableLocks.LOCKED);

            Future<List<TickStatistics>> sweep = inBackground(() -> tickThroughOnePass(sweeper));
            locked.awaitArrival(); // the page was read (generation 1) and the table's lock is held
            TableRegistration tombstone = registry().drop(scanned).registration().orElseThrow();
            TableRegistration replacement = registry().supersede(tombstone, SPEC.withLocation("s3://lake/orders-v2"))
                    .registration().orElseThrow();
            locked.release();
            sweep.get();

            assertThat(maintainer.maintained()).containsExactly(replacement);
            assertThat(maintainer.maintained().get(0).generation()).isEqualTo(3);
            assertThat(maintainer.maintained().get(0).location()).isEqualTo("s3://lake/orders-v2");
            assertThat(maintainer.cleanedUp()).isEmpty();
        }

        @Test
        void aTableDroppedAfterTheScan_isCleanedUpAsTheTombstone_neverMaintained() throws Exception {
            TableId orders = TableId.of("sales", "orders");
            TableRegistration scanned = registered(orders);
            PausePoints points = new PausePoints();
            RecordingMaintainer maintainer = new RecordingMaintainer();
            MaintenanceSweeper sweeper = sweeper(store, new InProcessTableLocks(store, points), maintainer, 10);
            PausePoints.Pause locked = points.arm(InProcessTableLocks.LOCKED);

            Future<List<TickStatistics>> sweep = inBackground(() -> tickThroughOnePass(sweeper));
            locked.awaitArrival();
            registry().drop(scanned);
            locked.release();
            List<TickStatistics> pass = sweep.get();

            assertThat(maintainer.maintained()).isEmpty();
            assertThat(maintainer.cleanedUp()).hasSize(1);
            assertThat(maintainer.cleanedUp().get(0).state()).isEqualTo(TableState.PURGING);
            assertThat(maintainer.cleanedUp().get(0).location()).isEqualTo(scanned.location());
            assertThat(pass.stream().mapToInt(TickStatistics::purged).sum()).isEqualTo(1);
            assertThat(registry().get(orders)).isEmpty();
        }

        @Test
        void aTableGoneSinceTheScan_isSkipped() throws Exception {
            TableId orders = TableId.of("sales", "orders");
            TableRegistration scanned = registered(orders);
            PausePoints points = new PausePoints();
            RecordingMaintainer maintainer = new RecordingMaintainer();
            MaintenanceSweeper sweeper = sweeper(store, new InProcessTableLocks(store, points), maintainer, 10);
            PausePoints.Pause locked = points.arm(InProcessTableLocks.LOCKED);

            Future<List<TickStatistics>> sweep = inBackground(() -> tickThroughOnePass(sweeper));
            locked.awaitArrival();
            TableRegistration purging = registry().startPurge(registry().drop(scanned).registration().orElseThrow())
                    .registration().orElseThrow();
            registry().deleteTombstone(purging);
            locked.release();

            assertThat(sweep.get().stream().mapToInt(TickStatistics::skipped).sum()).isEqualTo(1);
            assertThat(maintainer.maintained()).isEmpty();
            assertThat(maintainer.cleanedUp()).isEmpty();
        }
    }

    @Nested
    class Cancellation {

        @Test
        void cancelledBeforeTheFirstLock_takesNoLock_andTheNextTickReadsTheSamePage() {
            List<TableId> two = List.of(TableId.of("ns", "a"), TableId.of("ns", "b"));
            two.forEach(MaintenanceSuite.this::registered);
            InProcessTableLocks locks = new InProcessTableLocks(store);
            RecordingMaintainer maintainer = new RecordingMaintainer();
            MaintenanceSweeper sweeper = sweeper(store, locks, maintainer, 10);

            List<TickStatistics> cancelled = new ArrayList<>();
            do {
                cancelled.add(sweeper.tick(() -> true));
                assertThat(cancelled).hasSizeLessThan(100);
            } while (cancelled.get(cancelled.size() - 1).scanned() == 0 && !cancelled.get(cancelled.size() - 1).wrapped());
            TickStatistics stop = cancelled.get(cancelled.size() - 1);
            assertThat(stop.cancelled()).isTrue();
            assertThat(stop.maintained()).isZero();
            assertThat(locks.taken()).isEmpty();

            TickStatistics resumed = sweeper.tick();
            assertThat(resumed.cancelled()).isFalse();
            assertThat(resumed.maintained()).as("the cancelled page is read again").isEqualTo(stop.scanned());
        }

        @Test
        void cancelledBetweenTwoLocks_stopsBeforeTheSecond_andReleasesTheFirst() {
            List<TableId> two = List.of(TableId.of("ns", "a"), TableId.of("ns", "b"));
            two.forEach(MaintenanceSuite.this::registered);
            InProcessTableLocks locks = new InProcessTableLocks(store);
            RecordingMaintainer maintainer = new RecordingMaintainer();
            MaintenanceSweeper sweeper = sweeper(store, locks, maintainer, 10);
            AtomicBoolean cancel = new AtomicBoolean();
            maintainer.answering(r -> {
                cancel.set(true);
                return MaintenanceAction.none();
            });

            List<TickStatistics> ticks = new ArrayList<>();
            do {
                ticks.add(sweeper.tick(cancel::get));
                assertThat(ticks).hasSizeLessThan(100);
            } while (!cancel.get() && !ticks.get(ticks.size() - 1).wrapped());

            TickStatistics stop = ticks.get(ticks.size() - 1);
            if (stop.scanned() == 2) { // both on one page: the second lock was never taken
                assertThat(stop.cancelled()).isTrue();
                assertThat(stop.maintained()).isEqualTo(1);
                assertThat(locks.taken()).hasSize(1);
            }
            assertThat(maintainer.maintained()).hasSize(1);
            assertThat(two.stream().filter(locks::isHeld)).as("no lock is left held").isEmpty();
        }
    }

    @Nested
    class Tombstones {

        @Test
        void aDroppedTable_isCleanedUpOnce_thenItsTombstoneDeleted_andTheNameIsFree() {
            TableId orders = TableId.of("sales", "orders");
            registry().drop(registered(orders));
            RecordingMaintainer maintainer = new RecordingMaintainer();
            MaintenanceSweeper sweeper = sweeper(store, new InProcessTableLocks(store), maintainer, 10);

            List<TickStatistics> pass = tickThroughOnePass(sweeper);

            assertThat(pass.stream().mapToInt(TickStatistics::purged).sum()).isEqualTo(1);
            assertThat(maintainer.cleanedUp()).extracting(TableRegistration::id).containsExactly(orders);
            assertThat(registry().get(orders)).isEmpty();
            assertThat(registry().register(orders, SPEC).isApplied()).isTrue();
        }

        @Test
        void aCrashBetweenCleanupAndDelete_leavesTheTombstone_andTheNextSweepCleansUpAgainThenDeletes() {
            TableId orders = TableId.of("sales", "orders");
            registry().drop(registered(orders));
            RecordingMaintainer maintainer = new RecordingMaintainer();
            FaultyStore crashing = FaultyStore.over(store).failNext(Call.DELETE, Fault.thrown(new SimulatedCrash()));
            MaintenanceSweeper doomed = sweeper(store, new InProcessTableLocks(crashing), maintainer, 10);

            assertThatThrownBy(() -> tickThroughOnePass(doomed)).isInstanceOf(SimulatedCrash.class);
            assertThat(maintainer.cleanedUp()).hasSize(1);
            TableRegistration survivor = registry().get(orders).orElseThrow();
            assertThat(survivor.state()).isEqualTo(TableState.PURGING);
            assertThat(survivor.isDropped()).as("pages still report it dropped").isTrue();
            assertThat(allOf(TableRegistry.inNamespace("sales", 10))).containsExactly(survivor);

            MaintenanceSweeper restarted = sweeper(store, new InProcessTableLocks(store), maintainer, 10);
            List<TickStatistics> pass = tickThroughOnePass(restarted);

            assertThat(maintainer.cleanedUp()).as("cleaned up again, after claiming the surviving tombstone again")
                    .hasSize(2);
            TableRegistration reclaimed = maintainer.cleanedUp().get(1);
            assertThat(reclaimed.state()).isEqualTo(TableState.PURGING);
            assertThat(reclaimed.generation()).isEqualTo(survivor.generation() + 1);
            assertThat(reclaimed.location()).isEqualTo(survivor.location());
            assertThat(pass.stream().mapToInt(TickStatistics::purged).sum()).isEqualTo(1);
            assertThat(registry().get(orders)).isEmpty();
        }

        @Test
        void aTombstoneSupersededBeforeTheSweep_isMaintainedAsTheNewTable_notCleanedUp() {
            TableId orders = TableId.of("sales", "orders");
            TableRegistration tombstone = registry().drop(registered(orders)).registration().orElseThrow();
            TableRegistration replacement = registry().supersede(tombstone, SPEC).registration().orElseThrow();
            RecordingMaintainer maintainer = new RecordingMaintainer();

            tickThroughOnePass(sweeper(store, new InProcessTableLocks(store), maintainer, 10));

            assertThat(maintainer.cleanedUp()).isEmpty();
            assertThat(maintainer.maintained()).containsExactly(replacement);
        }
    }

    @Nested
    class Actions {

        @Test
        void aMaintainersAction_isWrittenThroughTheLocksStore_asACompareAndSetOnTheReRead() {
            TableId orders = TableId.of("sales", "orders");
            TableRegistration before = registered(orders);
            ReadCountingStore registryStore = new ReadCountingStore(store);
            ReadCountingStore lockStore = new ReadCountingStore(store);
            RecordingMaintainer maintainer = new RecordingMaintainer()
                    .answering(r -> MaintenanceAction.updateSpec(r.spec().withProperty("compactedAt", "t1")));

            List<TickStatistics> pass = tickThroughOnePass(sweeper(registryStore, new InProcessTableLocks(lockStore),
                    maintainer, 10));

            TableRegistration after = registry().get(orders).orElseThrow();
            assertThat(after.generation()).isEqualTo(before.generation() + 1);
            assertThat(after.properties()).containsEntry("compactedAt", "t1");
            assertThat(pass.stream().mapToInt(TickStatistics::updated).sum()).isEqualTo(1);
            assertThat(registryStore.writes()).as("nothing is written through the scanning store").isZero();
            assertThat(lockStore.writes()).isEqualTo(1);
        }

        @Test
        void anActionOnARegistrationThatChangedMeanwhile_conflicts_andOverwritesNothing() {
            TableId orders = TableId.of("sales", "orders");
            registered(orders);
            AtomicInteger calls = new AtomicInteger();
            RecordingMaintainer maintainer = new RecordingMaintainer().answering(r -> {
                calls.incrementAndGet();
                registry().update(r, r.spec().withProperty("by", "someone-else")); // a writer without the lock
                return MaintenanceAction.updateSpec(r.spec().withProperty("by", "maintainer"));
            });

            List<TickStatistics> pass = tickThroughOnePass(sweeper(store, new InProcessTableLocks(store), maintainer, 10));

            assertThat(calls.get()).isEqualTo(1);
            assertThat(pass.stream().mapToInt(TickStatistics::skipped).sum()).isEqualTo(1);
            assertThat(registry().get(orders).orElseThrow().properties()).containsEntry("by", "someone-else");
        }

        @Test
        void aFailingMaintainer_releasesTheLock_andTheNextTickRetriesTheSamePage() {
            TableId orders = TableId.of("sales", "orders");
            registered(orders);
            InProcessTableLocks locks = new InProcessTableLocks(store);
            AtomicBoolean fail = new AtomicBoolean(true);
            RecordingMaintainer maintainer = new RecordingMaintainer().answering(r -> {
                if (fail.getAndSet(false)) {
                    throw new IllegalStateException("maintainer bug");
                }
                return MaintenanceAction.none();
            });
            MaintenanceSweeper sweeper = sweeper(store, locks, maintainer, 10);

            assertThatThrownBy(() -> tickThroughOnePass(sweeper)).hasMessage("maintainer bug");
            assertThat(locks.isHeld(orders)).isFalse();
            tickThroughOnePass(sweeper);

            assertThat(maintainer.maintained()).extracting(TableRegistration::id).containsExactly(orders, orders);
        }
    }

    private List<TableRegistration> allOf(TypedPageRequest<TableRegistration> first) {
        List<TableRegistration> all = new ArrayList<>();
        Optional<TypedPageRequest<TableRegistration>> request = Optional.of(first);
        while (request.isPresent()) {
            TypedPage<TableRegistration> page = registry().scanTablesPage(request.get());
            all.addAll(page.items());
            request = request.get().next(page);
        }
        return all;
    }

    /** What a process dying right after the cleanup looks like to the sweeper: its delete never happens. */
    static final class SimulatedCrash extends RuntimeException {
        SimulatedCrash() {
            super("simulated crash before the tombstone's delete");
        }
    }
}
