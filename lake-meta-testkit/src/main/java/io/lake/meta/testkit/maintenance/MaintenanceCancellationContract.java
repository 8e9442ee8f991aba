package io.lake.meta.testkit.maintenance;

import static org.assertj.core.api.Assertions.assertThat;

import io.lake.meta.maintenance.MaintenanceAction;
import io.lake.meta.maintenance.MaintenanceSweeper;
import io.lake.meta.maintenance.TickStatistics;
import io.lake.meta.registry.TableId;
import io.lake.meta.testkit.ContractGroup;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** Part of {@link MaintenanceSuite}: cancellation. */
@ContractGroup("cancellation")
abstract class MaintenanceCancellationContract extends MaintenanceReReadContract {

    @Test
    void cancelledBeforeTheFirstLock_takesNoLock_andTheNextTickReadsTheSamePage() {
        List<TableId> two = List.of(TableId.of("ns", "a"), TableId.of("ns", "b"));
        two.forEach(this::registered);
        InProcessTableLocks locks = new InProcessTableLocks(store);
        RecordingMaintainer maintainer = new RecordingMaintainer();
        MaintenanceSweeper sweeper = sweeper(store, locks, maintainer, 10);

        List<TickStatistics> cancelled = new ArrayList<>();
        do {
            cancelled.add(sweeper.tick(() -> true));
            assertThat(cancelled).hasSizeLessThan(100);
        } while (cancelled.get(cancelled.size() - 1).scanned() == 0
                && !cancelled.get(cancelled.size() - 1).wrapped());
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
        two.forEach(this::registered);
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
        assertThat(two.stream().filter(locks::isHeld))
                .as("no lock is left held")
                .isEmpty();
    }
}
