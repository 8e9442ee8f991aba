package io.lake.meta.testkit.maintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.maintenance.MaintenanceSweeper;
import io.lake.meta.maintenance.TickStatistics;
import io.lake.meta.registry.TableId;
import io.lake.meta.registry.TableRegistration;
import io.lake.meta.registry.TableRegistry;
import io.lake.meta.registry.TableState;
import io.lake.meta.testkit.ContractGroup;
import io.lake.meta.testkit.FaultyStore;
import io.lake.meta.testkit.FaultyStore.Call;
import io.lake.meta.testkit.FaultyStore.Fault;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Part of {@link MaintenanceSuite}: tombstones. */
@ContractGroup("tombstones")
abstract class MaintenanceTombstonesContract extends MaintenanceCancellationContract {

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

        assertThat(maintainer.cleanedUp())
                .as("cleaned up again, after claiming the surviving tombstone again")
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
        TableRegistration tombstone =
                registry().drop(registered(orders)).registration().orElseThrow();
        TableRegistration replacement =
                registry().supersede(tombstone, SPEC).registration().orElseThrow();
        RecordingMaintainer maintainer = new RecordingMaintainer();

        tickThroughOnePass(sweeper(store, new InProcessTableLocks(store), maintainer, 10));

        assertThat(maintainer.cleanedUp()).isEmpty();
        assertThat(maintainer.maintained()).containsExactly(replacement);
    }
}
