package io.lake.meta.lock;

import io.lake.meta.InvalidArgumentException;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.Ticker;
import io.lake.meta.internal.LeaseSettings;
import io.lake.meta.internal.Options;
import io.lake.meta.lease.CorruptLeaseRecordException;
import io.lake.meta.lease.LeaseCandidate;
import io.lake.meta.lease.LeaseEpochExhaustedException;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;

/**
 * A lock on one resource key, held by one holder at a time, on the lease machinery of
 * {@code io.lake.meta.lease}: the lock's record under {@link #key()} is a lease record, and each
 * acquisition is a new term with a higher epoch. Unlike a lock whose holder merely believes it
 * holds the lock, the holder writes through its {@link LockHold#store() hold's fenced view}: a
 * holder that lost the lock (paused past its lease, taken over, released) cannot write, because
 * the store checks the hold's exact lease bytes atomically with every write.
 *
 * <pre>{@code
 * FencedLock lock = FencedLock.builder()
 *         .store(store)                               // the raw store; you own it
 *         .key(MetaKey.of("lock/tables/orders"))
 *         .holderId(hostName + "/" + pid)
 *         .leaseDuration(Duration.ofSeconds(15))
 *         .build();
 * lock.start();                                       // renewals run in the background
 * try (LockHold hold = lock.acquire(Duration.ofSeconds(5))) {
 *     hold.store().update(table, current, next);      // fenced by the hold's epoch
 * }
 * lock.close();
 * }</pre>
 *
 * <p>One hold at a time per lock object: it is one holder. Lifecycle, once each: latent →
 * started ({@link #start()}: renewals every renew interval on a scheduler) → closed
 * ({@link #close()}: stops renewals and releases the hold). Acquiring needs a started lock, so a
 * hold is always renewed. Thread-safe.
 *
 * @since 0.1.0
 */
public interface FencedLock extends AutoCloseable {

    /**
     * Where the lock is in its one-way lifecycle.
     *
     * @since 0.1.0
     */
    enum State {
        LATENT,
        STARTED,
        CLOSED
    }

    /** A builder: store, key, holder id and lease duration are required. */
    static Builder builder() {
        return new Builder();
    }

    /** The key the lock's lease record lives under. */
    MetaKey key();

    /** The id written into the lock record while this lock holds it. */
    String holderId();

    /** Where the lock is in its lifecycle. */
    State state();

    /**
     * Starts the background renewals: every renew interval, a live hold is renewed (never
     * re-acquired). On the scheduler given to the builder, or on a daemon thread the lock owns.
     *
     * @throws IllegalStateException if already started or closed, or if the supplied scheduler is
     *     shut down (the lock stays latent)
     */
    void start();

    /**
     * Acquires the lock, waiting at most {@code timeout}: one round now, then one every retry
     * interval while someone else holds it. A round acquires the record when it is absent, vacant
     * (released) or expired by this holder's wall clock. The wait is measured on the lock's ticker
     * and the retries run on its scheduler.
     *
     * @param timeout how long to wait; zero tries once
     * @return the new hold, in an epoch past every earlier hold's
     * @throws LockTimeoutException if the lock was not acquired in time; nothing of this caller's
     *     stays in the store
     * @throws InvalidArgumentException if {@code timeout} is null or negative
     * @throws IllegalStateException if the lock is not started, is closed, holds a live hold, or
     *     another thread is acquiring it
     * @throws LeaseEpochExhaustedException if the record is at the maximum epoch; nothing written
     * @throws CorruptLeaseRecordException if the key holds no valid lease record; nothing written
     * @throws InterruptedException if interrupted while waiting; nothing of this caller's stays held
     */
    LockHold acquire(Duration timeout) throws InterruptedException;

    /**
     * One round now, no waiting: the hold, or empty when someone else holds the lock (or the store
     * could not be reached). Errors as {@link #acquire(Duration)}, without the timeout.
     */
    Optional<LockHold> tryAcquire();

    /** The live hold, if this lock holds one now. No I/O. */
    Optional<LockHold> currentHold();

    /** Adds a listener for holds lost from now on. */
    void addListener(LockListener listener);

    /**
     * Stops the renewals, fails a waiting acquisition with {@link IllegalStateException}, and
     * releases the hold (best effort: if the store fails, the record expires on its own). Shuts
     * down the scheduler only if the lock owns it; the store stays open. Idempotent.
     */
    @Override
    void close();

    /**
     * Builds a {@link FencedLock}. Required: store, key, holder id, lease duration. A null or bad
     * value raises {@link InvalidArgumentException}; setting an option twice or building without
     * a required one {@link IllegalStateException}. Building does no I/O.
     *
     * @since 0.1.0
     */
    final class Builder {
        private @Nullable MetaStore store;
        private @Nullable MetaKey key;
        private @Nullable String holderId;
        private final LeaseSettings lease = new LeaseSettings();
        private @Nullable LockListener listener;

        private Builder() {}

        /** The raw store holding the lock record and the data (never a fenced view); never closed by the lock. */
        public Builder store(MetaStore store) {
            this.store = Options.setOnce(this.store, store, "store");
            return this;
        }

        /** The key of the lock's record: one per resource, such as {@code lock/tables/orders}. */
        public Builder key(MetaKey key) {
            this.key = Options.setOnce(this.key, key, "key");
            return this;
        }

        /** Who holds the lock, for operators reading the record: 1 to 256 characters, not blank. */
        public Builder holderId(String holderId) {
            this.holderId = LeaseSettings.id(Options.setOnce(this.holderId, holderId, "holderId"), "holderId");
            return this;
        }

        /** How long an acquired or renewed hold lasts without a renewal; at least 1 ms, at most 365 days. */
        public Builder leaseDuration(Duration leaseDuration) {
            lease.leaseDuration(leaseDuration);
            return this;
        }

        /**
         * How much earlier than the lease duration the holder's own view ends; covers wall-clock
         * disagreement between holders (see the leases guide). Default: zero.
         */
        public Builder safetyMargin(Duration safetyMargin) {
            lease.safetyMargin(safetyMargin);
            return this;
        }

        /** Delay between background renewals; shorter than lease duration minus safety margin. Default: a third of the lease duration. */
        public Builder renewInterval(Duration renewInterval) {
            lease.renewInterval(renewInterval);
            return this;
        }

        /** Delay between acquisition rounds while someone else holds the lock. Default: the renew interval. */
        public Builder retryInterval(Duration retryInterval) {
            lease.retryInterval(retryInterval);
            return this;
        }

        /** Wall clock for the record's expiry and for judging others' records. Default: UTC system clock. */
        public Builder clock(Clock clock) {
            lease.clock(clock);
            return this;
        }

        /** Monotonic ticker for the local deadline and the acquisition timeout. Default: {@link System#nanoTime()}. */
        public Builder ticker(Ticker ticker) {
            lease.ticker(ticker);
            return this;
        }

        /**
         * Runs renewals and acquisition retries on this scheduler, which the lock never shuts down:
         * share one among many locks.
         */
        public Builder scheduler(ScheduledExecutorService scheduler) {
            lease.scheduler(scheduler);
            return this;
        }

        /** A listener registered before any hold; more can be added later. */
        public Builder listener(LockListener listener) {
            this.listener = Options.setOnce(this.listener, listener, "listener");
            return this;
        }

        /**
         * Where listeners are called: one event at a time, in order, never while the lock holds a
         * lock of its own. Default: one daemon thread of this lock's, started on the first event
         * and ended when idle. {@code Runnable::run} delivers on the thread that noticed the loss,
         * after it released the lock's locks.
         *
         * @since 0.1.0
         */
        public Builder listenerExecutor(Executor listenerExecutor) {
            lease.listenerExecutor(listenerExecutor);
            return this;
        }

        /**
         * Builds the lock; it holds nothing until asked.
         *
         * @throws IllegalStateException if a required option is missing
         * @throws InvalidArgumentException if the safety margin is not shorter than the lease
         *     duration, or the renew interval not shorter than duration minus margin
         */
        public FencedLock build() {
            MetaStore store = Options.required(this.store, "store");
            MetaKey key = Options.required(this.key, "key");
            String holderId = Options.required(this.holderId, "holderId");
            Duration renew = lease.renewIntervalFor("a hold");
            ReentrantLock mutex = new ReentrantLock();
            MutexAwareDelivery delivery =
                    new MutexAwareDelivery(lease.listenerExecutor("lake-meta-lock-listener-" + key), mutex);
            // the lock's holder is a candidate for the lock's record, with the same lease settings
            LeaseCandidate candidate = LeaseCandidate.builder()
                    .store(store)
                    .leaseKey(key)
                    .candidateId(holderId)
                    .leaseDuration(lease.leaseDuration())
                    .safetyMargin(lease.marginFor("a hold"))
                    .clock(lease.clock())
                    .ticker(lease.ticker())
                    .listenerExecutor(delivery)
                    .build();
            return new LeaseLock(
                    store,
                    key,
                    holderId,
                    candidate,
                    lease.ticker(),
                    renew,
                    lease.retryIntervalOr(renew),
                    lease.scheduler(),
                    listener,
                    mutex,
                    delivery);
        }
    }
}
