package io.lake.meta.cli.maintenance;

import io.lake.meta.GuardedMutation;
import io.lake.meta.GuardedResult;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.Mutation;
import io.lake.meta.Transaction;
import io.lake.meta.TransactionResult;
import io.lake.meta.WriteResult;
import io.lake.meta.maintenance.MaintenanceAction;
import io.lake.meta.maintenance.MaintenanceLimits;
import io.lake.meta.maintenance.MaintenanceSweeper;
import io.lake.meta.maintenance.TableLock;
import io.lake.meta.maintenance.TableLockProvider;
import io.lake.meta.maintenance.TableMaintainer;
import io.lake.meta.maintenance.TickStatistics;
import io.lake.meta.registry.TableId;
import io.lake.meta.registry.TableRegistration;
import io.lake.meta.registry.TableRegistry;
import io.lake.meta.spi.ForwardingMetaStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One real {@link MaintenanceSweeper} tick that only reports: it writes nothing and takes no lock.
 *
 * <p>The work of maintenance (compacting a table, deleting a dropped table's files) is the
 * service's own code, which the command does not have. So the tick's maintainer records each live
 * table it is handed and asks for nothing to be written. Tombstones need care: the sweeper claims a
 * tombstone with a write before its cleanup and deletes it after, and a command that cannot clean
 * up must not do either (deleting the tombstone would forget data that still exists). So the lock
 * provider, which the sweeper asks before it touches a table, reads the registration once: a
 * tombstone is reported as waiting for cleanup and not locked, a registration gone since the page
 * is skipped, and a live table gets a lock whose view answers the sweeper's re-read from that same
 * read and refuses every write. The page, the paging and the statistics are the sweeper's own.
 */
final class ReportOnlyTick {

    /**
     * What one tick saw.
     *
     * @param toMaintain live tables a maintainer would have been handed, in page order
     * @param toCleanUp tombstones whose cleanup waits for a sweeper that can clean up
     * @param gone registrations deleted between the page read and their point read
     */
    record Report(
            MaintenanceLimits limits,
            TickStatistics statistics,
            List<TableRegistration> toMaintain,
            List<TableRegistration> toCleanUp,
            int gone) {}

    private ReportOnlyTick() {}

    static Report run(MetaStore store, MaintenanceLimits limits) {
        Recorder recorder = new Recorder();
        MaintenanceSweeper sweeper = MaintenanceSweeper.builder()
                .registryStore(store)
                .locks(new OneReadLocks(store, recorder))
                .maintainer(recorder)
                .limits(limits)
                .build();
        TickStatistics statistics = sweeper.tick();
        return new Report(
                limits, statistics, List.copyOf(recorder.toMaintain), List.copyOf(recorder.toCleanUp), recorder.gone);
    }

    /** What the tick handed out. Single-threaded: one tick runs on the command's thread. */
    private static final class Recorder implements TableMaintainer {
        final List<TableRegistration> toMaintain = new ArrayList<>();
        final List<TableRegistration> toCleanUp = new ArrayList<>();
        int gone;

        @Override
        public MaintenanceAction maintain(TableRegistration table) {
            toMaintain.add(table);
            return MaintenanceAction.none();
        }

        @Override
        public void cleanUp(TableRegistration tombstone) {
            // only reached after a claim was written, and the report's locks refuse every write
            throw new IllegalStateException("a report-only tick was asked to clean up " + tombstone.id());
        }
    }

    /** Reads each candidate once; locks only live tables, with a view that answers from that read. */
    private static final class OneReadLocks implements TableLockProvider {
        private final MetaStore store;
        private final Recorder recorder;

        OneReadLocks(MetaStore store, Recorder recorder) {
            this.store = store;
            this.recorder = recorder;
        }

        @Override
        public Optional<TableLock> tryLock(TableId table) {
            Optional<TableRegistration> read = TableRegistry.over(store).get(table);
            if (read.isEmpty()) {
                recorder.gone++;
                return Optional.empty();
            }
            if (read.get().isDropped()) {
                recorder.toCleanUp.add(read.get());
                return Optional.empty();
            }
            MetaStore view = new AsRead(store, table.key(), read.get().storedValue());
            return Optional.of(new TableLock() {
                @Override
                public MetaStore store() {
                    return view;
                }

                @Override
                public void close() {
                    // nothing was taken
                }
            });
        }
    }

    /** Answers reads of one key with the bytes already read; refuses every write. */
    private static final class AsRead extends ForwardingMetaStore {
        private final MetaKey key;
        private final MetaValue bytes;

        AsRead(MetaStore store, MetaKey key, MetaValue bytes) {
            super(store);
            this.key = key;
            this.bytes = bytes;
        }

        @Override
        public Optional<MetaValue> get(MetaKey k) {
            return k.equals(key) ? Optional.of(bytes) : super.get(k);
        }

        @Override
        public WriteResult apply(Mutation mutation) {
            throw refused(mutation.key());
        }

        @Override
        public GuardedResult applyGuarded(GuardedMutation mutation) {
            throw refused(mutation.target().key());
        }

        @Override
        public TransactionResult transact(Transaction transaction) {
            throw refused(key);
        }

        private static IllegalStateException refused(MetaKey target) {
            return new IllegalStateException("a report-only tick tried to write " + target);
        }

        @Override
        public void close() {
            // the command's store is closed by the command
        }
    }
}
