package io.lake.meta.testkit.maintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.maintenance.MaintenanceAction;
import io.lake.meta.maintenance.MaintenanceSweeper;
import io.lake.meta.maintenance.TickStatistics;
import io.lake.meta.registry.TableId;
import io.lake.meta.registry.TableRegistration;
import io.lake.meta.testkit.ContractGroup;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Part of {@link MaintenanceSuite}: actions. */
@ContractGroup("actions")
abstract class MaintenanceActionsContract extends MaintenanceTombstonesContract {

    @Test
    void aMaintainersAction_isWrittenThroughTheLocksStore_asACompareAndSetOnTheReRead() {
        TableId orders = TableId.of("sales", "orders");
        TableRegistration before = registered(orders);
        ReadCountingStore registryStore = new ReadCountingStore(store);
        ReadCountingStore lockStore = new ReadCountingStore(store);
        RecordingMaintainer maintainer = new RecordingMaintainer()
                .answering(r -> MaintenanceAction.updateSpec(r.spec().withProperty("compactedAt", "t1")));

        List<TickStatistics> pass =
                tickThroughOnePass(sweeper(registryStore, new InProcessTableLocks(lockStore), maintainer, 10));

        TableRegistration after = registry().get(orders).orElseThrow();
        assertThat(after.generation()).isEqualTo(before.generation() + 1);
        assertThat(after.properties()).containsEntry("compactedAt", "t1");
        assertThat(pass.stream().mapToInt(TickStatistics::updated).sum()).isEqualTo(1);
        assertThat(registryStore.writes())
                .as("nothing is written through the scanning store")
                .isZero();
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
