package io.lake.meta.testkit.maintenance;

import static org.assertj.core.api.Assertions.assertThat;

import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.lease.LeaseRecord;
import io.lake.meta.maintenance.FencedTableLocks;
import io.lake.meta.maintenance.MaintenanceLimits;
import io.lake.meta.maintenance.MaintenanceSweeper;
import io.lake.meta.maintenance.TableLockProvider;
import io.lake.meta.maintenance.TableMaintainer;
import io.lake.meta.maintenance.TickStatistics;
import io.lake.meta.registry.TableId;
import io.lake.meta.registry.TableRegistration;
import io.lake.meta.registry.TableRegistry;
import io.lake.meta.registry.TableSpec;
import io.lake.meta.testkit.lease.ManualTicker;
import io.lake.meta.testkit.lock.ManualScheduler;
import io.lake.meta.testkit.registry.RecipeSupport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;

/** Part of {@link FencedTableLocksSuite}: what its groups share. */
abstract class TableLocksSupport extends RecipeSupport {

    static final TableSpec SPEC = TableSpec.of("s3://lake/t", "iceberg");
    static final TableId ORDERS = TableId.of("sales", "orders");
    /** A record a lock holder writes besides the registration (such as its maintenance cursor). */
    static final MetaKey CURSOR = MetaKey.of("job/maintenance/sales-orders");

    final List<FencedTableLocks> providers = new ArrayList<>();

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
        FencedTableLocks locks = FencedTableLocks.builder()
                .store(via)
                .holderId(process.id)
                .leaseDuration(LEASE)
                .renewInterval(RENEW)
                .clock(wall)
                .ticker(process.ticker)
                .scheduler(process.scheduler)
                .build();
        providers.add(locks);
        return locks;
    }

    /** A sweeper over the store's registry, pages of 10, a 30 s tick budget. */
    protected MaintenanceSweeper sweeper(TableLockProvider locks, TableMaintainer maintainer) {
        return MaintenanceSweeper.builder()
                .registryStore(store)
                .locks(locks)
                .maintainer(maintainer)
                .limits(MaintenanceLimits.of(Duration.ofSeconds(30), 10))
                .clock(wall)
                .build();
    }

    /** The registry on the store under test, on the test's wall clock. */
    protected TableRegistry registry() {
        return TableRegistry.over(store, wall);
    }

    /** Registers {@code id} and returns its registration. */
    protected TableRegistration registered(TableId id) {
        return registry()
                .register(id, SPEC.withLocation("s3://lake/" + id))
                .registration()
                .orElseThrow();
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
        return LeaseRecord.decode(
                key, store.get(key).orElseThrow(() -> new AssertionError("no lock record under " + key)));
    }

    /** Lets the lease pass on the wall clock only: every process that is not told otherwise is paused. */
    protected void pauseEveryProcessPastTheLease() {
        wall.advance(LEASE.plus(RENEW));
    }
}
