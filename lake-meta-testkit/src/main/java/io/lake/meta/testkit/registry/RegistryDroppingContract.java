package io.lake.meta.testkit.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.FencedException;
import io.lake.meta.InvalidArgumentException;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaValue;
import io.lake.meta.lease.LeaderElection;
import io.lake.meta.registry.RegistryWriteResult;
import io.lake.meta.registry.TableId;
import io.lake.meta.registry.TableRegistration;
import io.lake.meta.registry.TableRegistry;
import io.lake.meta.registry.TableState;
import io.lake.meta.testkit.ContractGroup;
import io.lake.meta.testkit.PausePoints;
import io.lake.meta.testkit.lease.InFlightHooks;
import io.lake.meta.testkit.lease.ManualTicker;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** Part of {@link TableRegistrySuite}: dropping. */
@ContractGroup("dropping")
abstract class RegistryDroppingContract extends RegistryUpdatingContract {

    @Test
    void drop_leavesATombstone_thatKeepsTheLocation_andPagesReportAsDropped() {
        TableRegistration live = registered(ORDERS, ORDERS_SPEC);

        RegistryWriteResult dropped = registry().drop(live);

        assertThat(dropped.isApplied()).isTrue();
        TableRegistration tombstone = registry().get(ORDERS).orElseThrow();
        assertThat(tombstone.state()).isEqualTo(TableState.DROPPED);
        assertThat(tombstone.generation()).isEqualTo(2);
        assertThat(tombstone.location()).isEqualTo(ORDERS_SPEC.location());
        assertThat(tombstone.droppedAt()).contains(Instant.ofEpochMilli(wall.millis()));
        List<TableRegistration> listed = allPages(TableRegistry.inNamespace("sales", 10));
        assertThat(listed).containsExactly(tombstone);
        assertThat(listed.get(0).isDropped()).isTrue();
    }

    @Test
    void dropHeldInFlight_whileAnUpdateApplies_conflictsWithTheUpdatedRegistration() throws Exception {
        TableRegistration read = registered(ORDERS, ORDERS_SPEC);
        PausePoints points = new PausePoints();
        TableRegistry dropper = TableRegistry.over(new InFlightHooks(store, points), wall);
        PausePoints.Pause pause = points.arm(InFlightHooks.BEFORE_WRITE);
        Future<RegistryWriteResult> drop = inBackground(() -> dropper.drop(read));
        pause.awaitArrival();

        TableRegistration updated = registry()
                .update(read, ORDERS_SPEC.withProperty("tier", "gold"))
                .registration()
                .orElseThrow();
        pause.release();

        RegistryWriteResult dropResult = drop.get();
        assertThat(dropResult.isConflict()).isTrue();
        assertThat(dropResult.registration()).contains(updated);
        assertThat(registry().get(ORDERS)).contains(updated);
        assertThat(updated.isDropped()).isFalse();
    }

    @Test
    void updateHeldInFlight_whileADropApplies_conflictsWithTheTombstone() throws Exception {
        TableRegistration read = registered(ORDERS, ORDERS_SPEC);
        PausePoints points = new PausePoints();
        TableRegistry updater = TableRegistry.over(new InFlightHooks(store, points), wall);
        PausePoints.Pause pause = points.arm(InFlightHooks.BEFORE_WRITE);
        Future<RegistryWriteResult> update =
                inBackground(() -> updater.update(read, ORDERS_SPEC.withProperty("x", "y")));
        pause.awaitArrival();

        TableRegistration tombstone = registry().drop(read).registration().orElseThrow();
        pause.release();

        RegistryWriteResult updateResult = update.get();
        assertThat(updateResult.isConflict()).isTrue();
        assertThat(updateResult.registration()).contains(tombstone);
        assertThat(registry().get(ORDERS).orElseThrow().isDropped()).isTrue();
    }

    @Test
    void tombstone_isDeletedOnlyInTwoSteps_purgeStartedThenDeleted() {
        TableRegistration tombstone =
                registry().drop(registered(ORDERS, ORDERS_SPEC)).registration().orElseThrow();

        assertThatThrownBy(() -> registry().deleteTombstone(tombstone))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("start its purge first");
        TableRegistration purging =
                registry().startPurge(tombstone).registration().orElseThrow();
        assertThat(purging.state()).isEqualTo(TableState.PURGING);
        assertThat(purging.generation()).isEqualTo(3);
        assertThat(registry().get(ORDERS)).contains(purging);
        assertThat(registry().deleteTombstone(purging).isApplied()).isTrue();

        assertThat(registry().get(ORDERS)).isEmpty();
        assertThat(registry().register(ORDERS, ORDERS_SPEC).isApplied())
                .as("the name is free again")
                .isTrue();
    }

    @Test
    void aPurgeInterruptedByACrash_isClaimedAgain_withTheNextGeneration_andALiveTableIsNeverPurged() {
        TableRegistration purging = registry()
                .startPurge(registry()
                        .drop(registered(ORDERS, ORDERS_SPEC))
                        .registration()
                        .orElseThrow())
                .registration()
                .orElseThrow();
        wall.advance(Duration.ofMinutes(5));

        TableRegistration reclaimed =
                registry().startPurge(purging).registration().orElseThrow();

        assertThat(reclaimed.generation()).isEqualTo(purging.generation() + 1);
        assertThat(reclaimed.purgeStartedAt()).contains(Instant.ofEpochMilli(wall.millis()));
        assertThat(reclaimed.droppedAt()).isEqualTo(purging.droppedAt());
        TableRegistration live = registered(TableId.of("sales", "live"), ORDERS_SPEC);
        assertThatThrownBy(() -> registry().startPurge(live))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("active");
        assertThat(registry().get(live.id())).contains(live);
    }

    @Test
    void deposedLeader_canNeitherDropNorFinishACleanup() {
        TableRegistration live = registered(ORDERS, ORDERS_SPEC);
        TableRegistration other = registry()
                .drop(registered(TableId.of("sales", "old"), ORDERS_SPEC))
                .registration()
                .orElseThrow();
        TableRegistration purging = registry().startPurge(other).registration().orElseThrow();
        LeaderElection a = leader("node-a", new ManualTicker());
        TableRegistry registryOfA = TableRegistry.over(fenced(store, a), wall);
        takeOver("node-b");
        Map<MetaKey, MetaValue> before = contents("tbl", "lease");

        assertThatThrownBy(() -> registryOfA.drop(live)).isInstanceOf(FencedException.class);
        assertThatThrownBy(() -> registryOfA.deleteTombstone(purging)).isInstanceOf(FencedException.class);

        assertThat(contents("tbl", "lease")).isEqualTo(before);
    }
}
