package io.lake.meta.maintenance;

import io.lake.meta.MetaStore;
import io.lake.meta.fenced.FencedMetaStore;
import io.lake.meta.internal.BackgroundRounds;
import io.lake.meta.internal.Checks;
import io.lake.meta.recipes.TypedPage;
import io.lake.meta.recipes.TypedPageRequest;
import io.lake.meta.registry.RegistryWriteResult;
import io.lake.meta.registry.TableId;
import io.lake.meta.registry.TableRegistration;
import io.lake.meta.registry.TableRegistry;
import io.lake.meta.registry.TableSpec;
import java.time.Clock;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.function.BooleanSupplier;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sweeps the table registry one page per {@link #tick()}, in bounded work per tick.
 *
 * <ul>
 *   <li>A tick reads one registry page of at most {@link MaintenanceLimits#pageSize()} registrations,
 *       resuming at the continuation token the previous tick left; the token is all the sweeper
 *       keeps, in memory only. After the registry's last page the next tick starts again at the
 *       first (it wrapped).</li>
 *   <li>Each candidate's lock is taken from the caller's {@link TableLockProvider}; under it the
 *       registration is re-read with one point read through the lock's store, and only what that
 *       read shows is acted on: a live table goes to {@link TableMaintainer#maintain} (its action is
 *       written with a compare-and-set on the re-read bytes); a tombstone (dropped, or purging after
 *       an interrupted cleanup) is first claimed with {@link TableRegistry#startPurge}, then cleaned
 *       up with {@link TableMaintainer#cleanUp}, then deleted, so the destructive cleanup runs only
 *       right after a write the store accepted; a registration gone since the scan is skipped.
 *       Every write goes through the lock's store; a {@link FencedMetaStore} is first
 *       {@linkplain FencedMetaStore#pinnedToCurrentTerm() pinned to the term held when the table's
 *       work starts}, so what was decided in that term is refused once it ended.</li>
 *   <li>Cancellation is checked before each lock is taken: a cancelled tick stops there, leaves
 *       the token where it was (the next tick reads the same page again) and reports it.</li>
 *   <li>A failure (store unavailable, fenced, a maintainer that throws) releases the lock, leaves the
 *       token where it was and propagates.</li>
 * </ul>
 *
 * <p>Each tick returns its {@link TickStatistics} and logs one event. Ticks of one sweeper run one
 * at a time. The stores, lock provider and maintainer are the caller's.
 *
 * @since 0.1.0
 */
public final class MaintenanceSweeper {

    private static final Logger LOG = LoggerFactory.getLogger(MaintenanceSweeper.class);

    private final TableRegistry registry;
    private final TableLockProvider locks;
    private final TableMaintainer maintainer;
    private final MaintenanceLimits limits;
    private final Clock clock;
    private @Nullable String token;

    private MaintenanceSweeper(Builder b) {
        // build() checked the required ones
        this.registry = TableRegistry.over(Objects.requireNonNull(b.registryStore), b.clock);
        this.locks = Objects.requireNonNull(b.locks);
        this.maintainer = Objects.requireNonNull(b.maintainer);
        this.limits = b.limits;
        this.clock = b.clock;
    }

    /** A builder: the registry store, the locks and the maintainer are required. */
    public static Builder builder() {
        return new Builder();
    }

    /** One tick that never cancels (unless the thread is interrupted). */
    public TickStatistics tick() {
        return tick(() -> Thread.currentThread().isInterrupted());
    }

    /**
     * Reads one registry page and maintains its tables.
     *
     * @param cancelRequested asked before each lock is taken; true stops the tick there
     */
    public synchronized TickStatistics tick(BooleanSupplier cancelRequested) {
        Checks.notNull(cancelRequested, "cancelRequested");
        TypedPageRequest<TableRegistration> first = TableRegistry.allNamespaces(limits.pageSize());
        TypedPage<TableRegistration> page = registry.scanTablesPage(token == null ? first : first.after(token));
        Tally tally = new Tally(page.items().size());
        for (TableRegistration candidate : page.items()) {
            if (cancelRequested.getAsBoolean()) {
                return finish(tally.statistics(false, true));
            }
            Optional<TableLock> lock = locks.tryLock(candidate.id());
            if (lock.isEmpty()) {
                tally.skipped++;
                continue;
            }
            try (TableLock held = lock.get()) {
                maintainLocked(candidate.id(), held, tally);
            }
        }
        token = page.nextToken().orElse(null);
        return finish(tally.statistics(page.nextToken().isEmpty(), false));
    }

    /**
     * Ticks every {@link MaintenanceLimits#interval()} on {@code scheduler} (fixed delay, the first after
     * one interval); a failing tick is logged and the next goes on. Cancel the returned future to stop.
     *
     * @throws IllegalStateException if {@code scheduler} is shut down
     */
    public ScheduledFuture<?> scheduleOn(ScheduledExecutorService scheduler) {
        Checks.notNull(scheduler, "scheduler");
        return BackgroundRounds.on(scheduler, LOG)
                .every(
                        limits.interval(),
                        limits.interval(),
                        "maintenance tick",
                        "the next tick resumes at the same page",
                        this::tick);
    }

    /** The limits this sweeper runs with. */
    public MaintenanceLimits limits() {
        return limits;
    }

    private void maintainLocked(TableId id, TableLock held, Tally tally) {
        // Everything for this table is decided in the term held now: a fenced lock store is
        // pinned to it, so nothing decided here goes out under a later term of the same holder.
        MetaStore lockedStore = held.store();
        MetaStore inThisTerm =
                lockedStore instanceof FencedMetaStore fenced ? fenced.pinnedToCurrentTerm() : lockedStore;
        TableLock lock = inThisTerm == lockedStore ? held : new TermLock(held, (FencedMetaStore) inThisTerm);
        TableRegistry locked = TableRegistry.over(inThisTerm, clock);
        Optional<TableRegistration> reread = locked.get(id);
        if (reread.isEmpty()) {
            tally.skipped++;
            return;
        }
        TableRegistration current = reread.get();
        switch (current.state()) {
            case ACTIVE -> {
                tally.maintained++;
                MaintenanceAction action = maintainer.maintain(current, lock);
                if (action == null) {
                    throw new IllegalStateException("the maintainer returned null for " + current.id()
                            + "; return MaintenanceAction.none() when there is nothing to write");
                }
                Optional<TableSpec> next = action.newSpec();
                if (next.isPresent()) {
                    if (locked.update(current, next.get()).isApplied()) {
                        tally.updated++;
                    } else {
                        tally.skipped++;
                    }
                }
            }
            case DROPPED, PURGING -> {
                // claim the cleanup with a write first: a holder that lost its lock or lease is refused here
                RegistryWriteResult claimed = locked.startPurge(current);
                if (!claimed.isApplied()) {
                    tally.skipped++;
                    return;
                }
                TableRegistration purging = claimed.registration().orElseThrow();
                maintainer.cleanUp(purging, lock);
                if (locked.deleteTombstone(purging).isApplied()) {
                    tally.purged++;
                } else {
                    tally.skipped++;
                }
            }
        }
    }

    private TickStatistics finish(TickStatistics statistics) {
        LOG.info(
                "maintenance tick: scanned={} maintained={} updated={} purged={} skipped={} wrapped={} cancelled={}",
                statistics.scanned(),
                statistics.maintained(),
                statistics.updated(),
                statistics.purged(),
                statistics.skipped(),
                statistics.wrapped(),
                statistics.cancelled());
        return statistics;
    }

    /**
     * The maintainer's view of a held lock whose store the sweeper pinned to one term: that store,
     * and that term's epoch unless the lock has its own. Releasing stays the sweeper's.
     */
    private record TermLock(TableLock held, FencedMetaStore store) implements TableLock {

        @Override
        public OptionalLong epoch() {
            OptionalLong own = held.epoch();
            return own.isPresent() ? own : store.pinnedEpoch();
        }

        @Override
        public void close() {
            // the sweeper releases the lock it took
        }
    }

    /** Counts of one tick in progress. */
    private static final class Tally {
        final int scanned;
        int maintained;
        int updated;
        int purged;
        int skipped;

        Tally(int scanned) {
            this.scanned = scanned;
        }

        TickStatistics statistics(boolean wrapped, boolean cancelled) {
            return new TickStatistics(scanned, maintained, updated, purged, skipped, wrapped, cancelled);
        }
    }

    /**
     * Builds a sweeper; building does no I/O. Required: registry store, locks, maintainer.
     *
     * @since 0.1.0
     */
    public static final class Builder {

        private @Nullable MetaStore registryStore;
        private @Nullable TableLockProvider locks;
        private @Nullable TableMaintainer maintainer;
        private MaintenanceLimits limits = MaintenanceLimits.defaults();
        private Clock clock = Clock.systemUTC();

        private Builder() {}

        /** The store the registry pages are read from (reads only; writes go through each lock's store). */
        public Builder registryStore(MetaStore store) {
            this.registryStore = Checks.notNull(store, "registry store");
            return this;
        }

        /** The per-table locks each candidate is re-read under. */
        public Builder locks(TableLockProvider locks) {
            this.locks = Checks.notNull(locks, "lock provider");
            return this;
        }

        /** What maintains one table. */
        public Builder maintainer(TableMaintainer maintainer) {
            this.maintainer = Checks.notNull(maintainer, "maintainer");
            return this;
        }

        /** Page size and interval; {@link MaintenanceLimits#defaults()} unless set. */
        public Builder limits(MaintenanceLimits limits) {
            this.limits = Checks.notNull(limits, "limits");
            return this;
        }

        /** The clock that stamps purge starts; UTC wall time unless set. */
        public Builder clock(Clock clock) {
            this.clock = Checks.notNull(clock, "clock");
            return this;
        }

        /**
         * Builds the sweeper.
         *
         * @throws IllegalStateException if the registry store, the lock provider or the maintainer is missing
         */
        public MaintenanceSweeper build() {
            if (registryStore == null || locks == null || maintainer == null) {
                throw new IllegalStateException(
                        "a maintenance sweeper needs registryStore(...), locks(...) and" + " maintainer(...)");
            }
            return new MaintenanceSweeper(this);
        }
    }
}
