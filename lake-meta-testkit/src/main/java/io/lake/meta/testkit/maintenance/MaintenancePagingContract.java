package io.lake.meta.testkit.maintenance;

import static org.assertj.core.api.Assertions.assertThat;

import io.lake.meta.KeyPrefix;
import io.lake.meta.maintenance.MaintenanceSweeper;
import io.lake.meta.maintenance.TableLock;
import io.lake.meta.maintenance.TickStatistics;
import io.lake.meta.registry.TableId;
import io.lake.meta.registry.TableRegistration;
import io.lake.meta.testkit.ContractGroup;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Part of {@link MaintenanceSuite}: paging. */
@ContractGroup("paging")
abstract class MaintenancePagingContract extends MaintenanceSupport {

    @Test
    void aTick_readsOnePage_andOnePointReadPerCandidate_neverTheWholeRegistry() {
        List<TableId> five = List.of(
                TableId.of("ns1", "a"),
                TableId.of("ns1", "b"),
                TableId.of("ns2", "c"),
                TableId.of("ns2", "d"),
                TableId.of("ns3", "e"));
        five.forEach(this::registered);
        ReadCountingStore counting = new ReadCountingStore(store);
        RecordingMaintainer maintainer = new RecordingMaintainer();
        MaintenanceSweeper sweeper = sweeper(counting, new InProcessTableLocks(counting), maintainer, 2);

        List<TickStatistics> pass = new ArrayList<>();
        do {
            counting.reset();
            TickStatistics tick = sweeper.tick();
            pass.add(tick);
            assertThat(counting.pages())
                    .as("tick %d reads exactly one page, of the whole registry family", pass.size())
                    .containsExactly(KeyPrefix.of("tbl/"));
            assertThat(tick.scanned()).isLessThanOrEqualTo(2);
            assertThat(counting.pointReads()).as("one re-read per candidate").hasSize(tick.scanned());
            assertThat(counting.batchReads()).isZero();
            assertThat(counting.writes())
                    .as("the token lives in memory: a tick that maintains nothing writes nothing")
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
        three.forEach(this::registered);
        RecordingMaintainer maintainer = new RecordingMaintainer();
        MaintenanceSweeper sweeper = sweeper(store, new InProcessTableLocks(store), maintainer, 2);

        tickThroughOnePass(sweeper);
        tickThroughOnePass(sweeper);

        assertThat(maintainer.maintained())
                .extracting(TableRegistration::id)
                .hasSize(6)
                .isSubsetOf(three);
        assertThat(maintainer.maintained().subList(3, 6))
                .extracting(TableRegistration::id)
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
