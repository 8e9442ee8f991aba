package io.lake.meta.testkit.ops;

import static org.assertj.core.api.Assertions.assertThat;

import io.lake.meta.MetaStore;
import io.lake.meta.lease.LeaderElection;
import io.lake.meta.maintenance.MaintenanceLimits;
import io.lake.meta.maintenance.MaintenanceSweeper;
import io.lake.meta.maintenance.TableLock;
import io.lake.meta.maintenance.TickStatistics;
import io.lake.meta.ops.OperationJournal;
import io.lake.meta.registry.TableId;
import io.lake.meta.registry.TableSpec;
import io.lake.meta.testkit.maintenance.InProcessTableLocks;
import io.lake.meta.testkit.maintenance.RecordingMaintainer;
import io.lake.meta.testkit.registry.RecipeSupport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Part of {@link FencedPublicationSuite}: what its groups share. */
abstract class PublicationSupport extends RecipeSupport {

    static final Duration RETENTION = Duration.ofHours(1);
    static final TableSpec SPEC = TableSpec.of("s3://lake/t", "iceberg");

    OperationJournal journal(MetaStore fencedStore, LeaderElection leader) {
        return OperationJournal.builder()
                .store(fencedStore)
                .authority(leader)
                .clock(wall)
                .retention(RETENTION)
                .build();
    }

    MaintenanceSweeper sweeper(MetaStore registryStore, InProcessTableLocks locks, RecordingMaintainer maintainer) {
        return MaintenanceSweeper.builder()
                .registryStore(registryStore)
                .locks(locks)
                .maintainer(maintainer)
                .limits(MaintenanceLimits.of(Duration.ofSeconds(30), 10))
                .clock(wall)
                .build();
    }

    static List<TickStatistics> sweepOnePass(MaintenanceSweeper sweeper) {
        List<TickStatistics> ticks = new ArrayList<>();
        do {
            ticks.add(sweeper.tick());
            assertThat(ticks).hasSizeLessThan(100);
        } while (!ticks.get(ticks.size() - 1).wrapped());
        return ticks;
    }

    /** A write path of a recipe, named for the report. */
    record WritePath(String name, Runnable write) {}

    /** One sweep pass in which only {@code target} can be locked: the others are held elsewhere. */
    static void sweepOnly(MaintenanceSweeper sweeper, InProcessTableLocks locks, TableId target, TableId... others) {
        List<TableLock> held = new ArrayList<>();
        try {
            for (TableId other : others) {
                if (!locks.isHeld(other)) {
                    held.add(locks.holdElsewhere(other));
                }
            }
            sweepOnePass(sweeper);
        } finally {
            held.forEach(TableLock::close);
        }
        assertThat(Optional.of(locks.isHeld(target))).contains(false);
    }
}
