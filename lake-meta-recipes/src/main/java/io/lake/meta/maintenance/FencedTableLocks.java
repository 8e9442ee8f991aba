package io.lake.meta.maintenance;

import io.lake.meta.InvalidArgumentException;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.Ticker;
import io.lake.meta.internal.BackgroundRounds;
import io.lake.meta.internal.Checks;
import io.lake.meta.internal.LeaseSettings;
import io.lake.meta.internal.Options;
import io.lake.meta.lock.FencedLock;
import io.lake.meta.lock.LockHold;
import io.lake.meta.registry.TableId;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link TableLockProvider} for sweepers in many processes: a {@link FencedLock} per table,
 * under {@link #lockKey(TableId) lock/tbl/&lt;namespace&gt;/&lt;name&gt;}, so maintenance of one table runs
 * in one process at a time, and each held lock's {@link TableLock#store()} is the hold's fenced
 * view: a sweeper that lost the lock (paused past its lease, taken over) writes nothing, because
 * the store checks the lock record's exact bytes with every write.
 *
 * <pre>{@code
 * try (FencedTableLocks locks = FencedTableLocks.builder()
 *         .store(store)                               // the raw store; you own it
 *         .holderId(hostName + "/" + pid)
 *         .leaseDuration(Duration.ofSeconds(30))      // longer than one table's maintenance, or renewed
 *         .build()) {
 *     MaintenanceSweeper sweeper = MaintenanceSweeper.builder().registryStore(store).locks(locks)...build();
 *     sweeper.tick();
 * }
 * }</pre>
 *
 * <ul>
 *   <li>{@link #tryLock} makes one acquisition round without waiting: a table locked by another
 *       holder (or by an earlier, unreleased lock of this provider) is empty, and the sweeper skips
 *       it this tick. Each lock is a new hold with an epoch past every earlier one on that table.</li>
 *   <li>While a lock is held it is renewed every renew interval on the provider's scheduler, so a
 *       long maintenance keeps its lock; closing the {@link TableLock} releases it (best effort: if
 *       the store fails, the record expires after the lease duration).</li>
 *   <li>Lock records stay after release (vacant, keeping their epoch), one per table ever
 *       maintained: that is what keeps epochs increasing. They are lease records, small, in the
 *       {@code lock} family.</li>
 * </ul>
 *
 * <p>Lifecycle: usable once built; {@link #close()} releases every lock still held and shuts down
 * the scheduler if the provider created it (a supplied one is left running). Thread-safe.
 *
 * @since 0.1.0
 */
public final class FencedTableLocks implements TableLockProvider, AutoCloseable {

    /** The key family of every lock record. */
    public static final String LOCK_FAMILY = "lock";

    private static final Logger LOG = LoggerFactory.getLogger(FencedTableLocks.class);

    private final MetaStore store;
    private final Settings settings;
    /** Every held lock's renewals run on its scheduler (the supplied one, or the provider's own thread). */
    private final BackgroundRounds rounds;

    private final Map<TableId, FencedLock> held = new ConcurrentHashMap<>();
    private volatile boolean closed;

    private FencedTableLocks(Builder b, Settings settings) {
        this.store = Options.required(b.store, "store"); // build() checked it
        this.settings = settings;
        this.rounds = BackgroundRounds.of(b.lease.scheduler(), "lake-meta-table-locks-" + settings.holderId, LOG);
    }

    /** A builder; store, holder id and lease duration are required. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Where the lock of {@code table} lives: {@code lock/tbl/<namespace>/<name>}, the registration's
     * key under the lock family, so two tables never share a lock ({@code ns1} and {@code ns10}
     * included) and an operator finds a table's lock by its name.
     */
    public static MetaKey lockKey(TableId table) {
        Checks.notNull(table, "table");
        return MetaKey.of(LOCK_FAMILY + "/" + table.key());
    }

    /**
     * One acquisition round on {@code table}'s lock, without waiting.
     *
     * @return the held lock, or empty when another holder holds it, this provider holds it already,
     *     or the store could not be reached (the sweeper skips the table this tick)
     * @throws io.lake.meta.lease.CorruptLeaseRecordException if the lock key holds no lease record; nothing written
     * @throws io.lake.meta.lease.LeaseEpochExhaustedException if the lock's epoch is exhausted; nothing written
     * @throws IllegalStateException if the provider is closed
     */
    @Override
    public Optional<TableLock> tryLock(TableId table) {
        Checks.notNull(table, "table");
        requireOpen();
        FencedLock lock = settings.lockOn(store, lockKey(table), rounds.scheduler());
        if (held.putIfAbsent(table, lock) != null) {
            lock.close(); // never started: no I/O
            return Optional.empty();
        }
        try {
            requireOpen(); // closed meanwhile: close() may have missed this lock

            lock.start();
            Optional<LockHold> hold = lock.tryAcquire();
            if (hold.isEmpty()) {
                forget(table, lock);
                return Optional.empty();
            }
            return Optional.of(new HeldTable(table, lock, hold.get()));
        } catch (RuntimeException e) {
            forget(table, lock);
            throw e;
        }
    }

    /** Whether this provider holds {@code table}'s lock now (no I/O). */
    public boolean isHeld(TableId table) {
        Checks.notNull(table, "table");
        FencedLock lock = held.get(table);
        return lock != null && lock.currentHold().isPresent();
    }

    /**
     * Releases every lock still held (best effort) and shuts down the scheduler if this provider
     * created it. Idempotent; afterwards {@link #tryLock} is refused.
     */
    @Override
    public void close() {
        closed = true;
        held.forEach(this::forget);
        rounds.close();
    }

    private void forget(TableId table, FencedLock lock) {
        held.remove(table, lock);
        lock.close(); // stops its renewals and releases its hold; logs a store failure instead of throwing
    }

    private void requireOpen() {
        if (closed) {
            throw new IllegalStateException("these table locks (holder " + settings.holderId + ") are closed");
        }
    }

    @Override
    public String toString() {
        return "FencedTableLocks[holder=" + settings.holderId + ", lease=" + settings.leaseDuration + ", held="
                + held.size() + "]";
    }

    /** One held table lock: the hold's fenced view, released (and its renewals stopped) on close. */
    private final class HeldTable implements TableLock {
        private final TableId table;
        private final FencedLock lock;
        private final LockHold hold;

        HeldTable(TableId table, FencedLock lock, LockHold hold) {
            this.table = table;
            this.lock = lock;
            this.hold = hold;
        }

        @Override
        public MetaStore store() {
            return hold.store();
        }

        @Override
        public OptionalLong epoch() {
            return OptionalLong.of(hold.epoch());
        }

        @Override
        public void close() {
            forget(table, lock);
        }

        @Override
        public String toString() {
            return "TableLock[" + lock.key() + ", epoch " + hold.epoch() + ", held=" + hold.isHeld() + "]";
        }
    }

    /** The lock settings every table's lock is built with: validated once, when the provider is built. */
    private static final class Settings {
        final String holderId;
        final Duration leaseDuration;
        final Duration safetyMargin;
        final Duration renewInterval;
        final Clock clock;
        final Ticker ticker;

        /** @throws InvalidArgumentException if the margin or the renew interval does not fit the lease */
        Settings(String holderId, LeaseSettings lease) {
            this.holderId = holderId;
            this.renewInterval = lease.renewIntervalFor("a hold");
            this.leaseDuration = lease.leaseDuration();
            this.safetyMargin = lease.marginFor("a hold");
            this.clock = lease.clock();
            this.ticker = lease.ticker();
        }

        /**
         * A latent lock on {@code key}; building does no I/O. Its events are delivered on the thread
         * that made the transition (after the lock's locks are released): nobody but the lock itself
         * listens, and a listener thread of each table's own would outlive it by its idle time, a
         * page of tables' worth of threads per tick.
         */
        FencedLock lockOn(MetaStore store, MetaKey key, ScheduledExecutorService scheduler) {
            return FencedLock.builder()
                    .store(store)
                    .key(key)
                    .holderId(holderId)
                    .leaseDuration(leaseDuration)
                    .safetyMargin(safetyMargin)
                    .renewInterval(renewInterval)
                    .clock(clock)
                    .ticker(ticker)
                    .scheduler(scheduler)
                    .listenerExecutor(Runnable::run)
                    .build();
        }
    }

    /**
     * Builds {@link FencedTableLocks}. Required: store, holder id, lease duration. The options and
     * their rules are {@link FencedLock.Builder}'s: a null or bad value raises
     * {@link InvalidArgumentException}; setting an option twice or building without a required one
     * {@link IllegalStateException}. Building does no I/O.
     *
     * @since 0.1.0
     */
    public static final class Builder {
        private @Nullable MetaStore store;
        private @Nullable String holderId;
        private final LeaseSettings lease = new LeaseSettings();

        private Builder() {}

        /** The raw store holding the lock records and the registry (never a fenced view); never closed here. */
        public Builder store(MetaStore store) {
            this.store = Options.setOnce(this.store, store, "store");
            return this;
        }

        /** Who holds the locks, for operators reading a lock record: 1 to 256 characters, not blank. */
        public Builder holderId(String holderId) {
            this.holderId = LeaseSettings.id(Options.setOnce(this.holderId, holderId, "holderId"), "holderId");
            return this;
        }

        /** How long a lock lasts without a renewal; at least 1 ms, at most 365 days. */
        public Builder leaseDuration(Duration leaseDuration) {
            lease.leaseDuration(leaseDuration);
            return this;
        }

        /** How much earlier than the lease duration a holder's own view ends (wall-clock disagreement). Default: zero. */
        public Builder safetyMargin(Duration safetyMargin) {
            lease.safetyMargin(safetyMargin);
            return this;
        }

        /** Delay between renewals of a held lock. Default: a third of the lease duration. */
        public Builder renewInterval(Duration renewInterval) {
            lease.renewInterval(renewInterval);
            return this;
        }

        /** Wall clock of the lock records' expiry. Default: UTC system clock. */
        public Builder clock(Clock clock) {
            lease.clock(clock);
            return this;
        }

        /** Monotonic ticker of each hold's local deadline. Default: {@link System#nanoTime()}. */
        public Builder ticker(Ticker ticker) {
            lease.ticker(ticker);
            return this;
        }

        /**
         * Runs every held lock's renewals on this scheduler, which the provider never shuts down.
         * Default: one daemon thread of the provider's own, shut down by {@link #close()}.
         */
        public Builder scheduler(ScheduledExecutorService scheduler) {
            lease.scheduler(scheduler);
            return this;
        }

        /**
         * Builds the provider; it holds nothing until asked.
         *
         * @throws IllegalStateException if the store, the holder id or the lease duration is missing
         * @throws InvalidArgumentException if the safety margin is not shorter than the lease duration,
         *     or the renew interval not shorter than duration minus margin
         */
        public FencedTableLocks build() {
            Options.required(store, "store");
            return new FencedTableLocks(this, new Settings(Options.required(holderId, "holderId"), lease));
        }
    }
}
