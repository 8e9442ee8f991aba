package io.lake.meta.testkit.maintenance;

import static org.assertj.core.api.Assertions.assertThat;

import io.lake.meta.maintenance.MaintenanceSweeper;
import io.lake.meta.maintenance.TickStatistics;
import io.lake.meta.registry.TableId;
import io.lake.meta.registry.TableRegistration;
import io.lake.meta.registry.TableState;
import io.lake.meta.testkit.ContractGroup;
import io.lake.meta.testkit.PausePoints;
import java.util.List;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** Part of {@link MaintenanceSuite}: re read under the lock. */
@ContractGroup("re-read under the lock")
abstract class MaintenanceReReadContract extends MaintenancePagingContract {

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
        TableRegistration replacement = registry()
                .supersede(tombstone, SPEC.withLocation("s3://lake/orders-v2"))
                .registration()
                .orElseThrow();
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
        TableRegistration purging = registry()
                .startPurge(registry().drop(scanned).registration().orElseThrow())
                .registration()
                .orElseThrow();
        registry().deleteTombstone(purging);
        locked.release();

        assertThat(sweep.get().stream().mapToInt(TickStatistics::skipped).sum()).isEqualTo(1);
        assertThat(maintainer.maintained()).isEmpty();
        assertThat(maintainer.cleanedUp()).isEmpty();
    }
}
