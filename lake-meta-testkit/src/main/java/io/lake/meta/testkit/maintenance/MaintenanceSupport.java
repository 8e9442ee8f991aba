package io.lake.meta.testkit.maintenance;

import static org.assertj.core.api.Assertions.assertThat;

import io.lake.meta.MetaStore;
import io.lake.meta.maintenance.MaintenanceLimits;
import io.lake.meta.maintenance.MaintenanceSweeper;
import io.lake.meta.maintenance.TableMaintainer;
import io.lake.meta.maintenance.TickStatistics;
import io.lake.meta.recipes.TypedPage;
import io.lake.meta.recipes.TypedPageRequest;
import io.lake.meta.registry.TableId;
import io.lake.meta.registry.TableRegistration;
import io.lake.meta.registry.TableRegistry;
import io.lake.meta.registry.TableSpec;
import io.lake.meta.testkit.registry.RecipeSupport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Part of {@link MaintenanceSuite}: what its groups share. */
abstract class MaintenanceSupport extends RecipeSupport {

    static final TableSpec SPEC = TableSpec.of("s3://lake/t", "iceberg");

    /** A registry over the store under test, on the suite's wall clock. */
    protected TableRegistry registry() {
        return TableRegistry.over(store, wall);
    }

    /** Registers {@code id} with the suite's spec and returns its registration. */
    protected TableRegistration registered(TableId id) {
        return registry()
                .register(id, SPEC.withLocation("s3://lake/" + id))
                .registration()
                .orElseThrow();
    }

    /** A sweeper over {@code registryStore} with the given locks, maintainer and page size. */
    protected MaintenanceSweeper sweeper(
            MetaStore registryStore, InProcessTableLocks locks, TableMaintainer maintainer, int pageSize) {
        return MaintenanceSweeper.builder()
                .registryStore(registryStore)
                .locks(locks)
                .maintainer(maintainer)
                .limits(MaintenanceLimits.of(Duration.ofSeconds(30), pageSize))
                .clock(wall)
                .build();
    }

    /** Ticks until a tick wraps (bounded), returning every tick's statistics. */
    static List<TickStatistics> tickThroughOnePass(MaintenanceSweeper sweeper) {
        List<TickStatistics> ticks = new ArrayList<>();
        do {
            ticks.add(sweeper.tick());
            assertThat(ticks).as("a pass over the registry ends").hasSizeLessThan(100);
        } while (!ticks.get(ticks.size() - 1).wrapped());
        return ticks;
    }

    List<TableRegistration> allOf(TypedPageRequest<TableRegistration> first) {
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
