package io.lake.meta.lease;

import io.lake.meta.InvalidArgumentException;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaStoreException;
import io.lake.meta.OutcomeUnknownException;
import io.lake.meta.Ticker;
import io.lake.meta.internal.BackgroundRounds;
import io.lake.meta.internal.Checks;
import io.lake.meta.internal.LeaseSettings;
import io.lake.meta.internal.Listeners;
import io.lake.meta.internal.Options;
import java.time.Clock;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Leader election on one lease key of a {@link MetaStore}, using only compare-and-set on the
 * exact bytes of the lease record ({@link LeaseRecord}).
 *
 * <p>A campaign round ({@link #campaignOnce()}) reads the record and then:
 * <ul>
 *   <li>renews it, keeping the epoch, when it holds the bytes this election installed and their
 *       term has not ended (the local deadline has not passed, no "lost" was announced);</li>
 *   <li>acquires it in a new term when it is absent, vacant, expired by this candidate's wall
 *       clock, or holds this election's own bytes of a term that ended;</li>
 *   <li>otherwise follows.</li>
 * </ul>
 * One term per epoch: once listeners heard "lost" for an epoch, this election never leads in it
 * again. A new term's epoch is one past both the record's and the highest this election has
 * seen. Every change is a compare-and-set on the exact bytes read, so two candidates can never
 * both install a record over the same predecessor. At epoch {@link Long#MAX_VALUE} acquisition
 * fails closed with {@link LeaseEpochExhaustedException}.
 *
 * <p>A successful round publishes a new immutable {@link LeaseGuard} whose local deadline is the
 * {@link Ticker} reading taken <em>before</em> the write was sent, plus the lease duration, minus
 * the safety margin. Others judge expiry by the record's wall-clock expiry, so this leader stops
 * believing it leads before anyone may take over, as long as wall clocks agree within the safety
 * margin (less the tickers' rate drift over one lease). Writes made through a
 * {@code io.lake.meta.fenced.FencedMetaStore} do not depend on that assumption: the store checks
 * the guard's bytes atomically with each write.
 *
 * <p>Lifecycle, once each: latent → started ({@link #start()}: rounds every renew interval on a
 * scheduler) → closed ({@link #close()}: stops rounds and resigns). {@link #campaignOnce()} may
 * also be called directly, latent or started. Thread-safe: rounds and resignation are
 * serialized; a guard rejection never waits for a round. Listeners run on the listener executor
 * ({@link Builder#listenerExecutor}), one event at a time, in order, and never under the
 * election's locks, so a listener may call back into the election.
 *
 * @since 0.1.0
 */
public final class LeaderElection implements LeaseAuthority, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LeaderElection.class);

    /**
     * Where the election is in its one-way lifecycle.
     *
     * @since 0.1.0
     */
    public enum State {
        LATENT,
        STARTED,
        CLOSED
    }

    private final MetaKey leaseKey;
    private final String candidateId;
    private final Duration leaseDuration;
    private final Duration renewInterval;
    private final Duration safetyMargin;
    private final Listeners<LeadershipListener> listeners;
    private final BackgroundRounds rounds;

    /** Wakes {@link #awaitLeadership} callers when leadership may have changed or the election closed. */
    private final ReentrantLock leadershipLock = new ReentrantLock();

    private final Condition leadershipMayHaveChanged = leadershipLock.newCondition();

    /** Guarded by the driver's round lock, except its guard and status reads. */
    private final LeaseCampaign campaign;

    private final CampaignDriver driver;

    /** Guarded by this: lifecycle. */
    private volatile State state = State.LATENT;

    private LeaderElection(Builder b, Duration renewInterval) {
        // build() checked the required options
        this.leaseKey = Options.required(b.leaseKey, "leaseKey");
        this.candidateId = Options.required(b.candidateId, "candidateId");
        this.leaseDuration = b.lease.leaseDuration();
        this.renewInterval = renewInterval;
        this.safetyMargin = b.lease.marginFor("a leader");
        this.listeners =
                LeaseCampaign.listeners(b.lease.listenerExecutor("lake-meta-election-listener-" + candidateId), LOG);
        this.rounds = BackgroundRounds.of(b.lease.scheduler(), "lake-meta-election-" + candidateId, LOG);
        this.campaign = new LeaseCampaign(
                Options.required(b.store, "store"),
                leaseKey,
                candidateId,
                b.lease.clock(),
                b.lease.ticker(),
                leaseDuration,
                safetyMargin,
                listeners,
                LOG);
        this.driver = new CampaignDriver(campaign, listeners, LOG);
        if (b.listener != null) {
            listeners.add(b.listener);
        }
    }

    /** A builder: store, lease key, candidate id and lease duration are required. */
    public static Builder builder() {
        return new Builder();
    }

    @Override
    public MetaKey leaseKey() {
        return leaseKey;
    }

    /** This candidate's id, as written into the lease record. */
    public String candidateId() {
        return candidateId;
    }

    /** Where the election is in its lifecycle: latent, started or closed. */
    public State state() {
        return state;
    }

    /**
     * Adds a listener; it hears events from the next transition on, on the listener executor.
     *
     * @throws InvalidArgumentException if {@code listener} is null
     */
    public void addListener(LeadershipListener listener) {
        listeners.add(listener);
    }

    /**
     * The freshest guard, or empty when this candidate holds no lease or the guard's local
     * deadline has passed. Reads no I/O.
     */
    @Override
    public Optional<LeaseGuard> currentGuard() {
        return campaign.validGuard();
    }

    /** Whether this candidate currently holds a valid guard. Reads no I/O. */
    public boolean isLeader() {
        return currentGuard().isPresent();
    }

    /**
     * Waits until this candidate leads (holds a valid guard), the timeout passes, or the election
     * closes, like Curator's {@code LeaderLatch.await(timeout, unit)}. Waiting does no I/O and
     * runs no round: the background rounds ({@link #start()}) or another thread's
     * {@link #campaignOnce()} must win the lease meanwhile. A zero timeout only checks.
     *
     * @param timeout how long to wait at most; zero or positive
     * @return whether this candidate leads when the call returns: {@code true} as soon as it does,
     *     {@code false} after the timeout or once the election is closed
     * @throws InvalidArgumentException if {@code timeout} is null or negative; nothing waited for
     * @throws InterruptedException if the thread is interrupted while it waits; the election is
     *     left as it was
     */
    public boolean awaitLeadership(Duration timeout) throws InterruptedException {
        Checks.notNull(timeout, "timeout");
        if (timeout.isNegative()) {
            throw new InvalidArgumentException("timeout must be zero or positive, got " + timeout);
        }
        long remaining = saturatedNanos(timeout);
        leadershipLock.lockInterruptibly();
        try {
            while (!isLeader()) {
                if (state == State.CLOSED || remaining <= 0) {
                    return isLeader();
                }
                remaining = leadershipMayHaveChanged.awaitNanos(remaining);
            }
            return true;
        } finally {
            leadershipLock.unlock();
        }
    }

    private static long saturatedNanos(Duration d) {
        try {
            return d.toNanos();
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE;
        }
    }

    private void signalLeadershipChange() {
        leadershipLock.lock();
        try {
            leadershipMayHaveChanged.signalAll();
        } finally {
            leadershipLock.unlock();
        }
    }

    /**
     * Reads the lease record (one linearizable read) and says who holds it. Leader only while
     * this candidate's guard is valid and the record still holds the guard's exact bytes.
     *
     * @throws CorruptLeaseRecordException if the key holds something that is not a lease record
     */
    public LeadershipStatus status() {
        return campaign.status();
    }

    /**
     * Runs one campaign round now, on the calling thread: renew, acquire or follow (see the
     * class comment). Serialized with the background rounds.
     *
     * @return the status this round established
     * @throws IllegalStateException if the election is closed
     * @throws LeaseEpochExhaustedException if the lease is free but at the maximum epoch; nothing written
     * @throws CorruptLeaseRecordException if the lease key holds no valid record; nothing written
     * @throws OutcomeUnknownException if the lease write's answer was lost; the next round resolves it
     * @throws MetaStoreException any other store failure; the current guard stays valid until its deadline
     */
    public LeadershipStatus campaignOnce() {
        try {
            return driver.run(() -> {
                if (state == State.CLOSED) {
                    throw new IllegalStateException("election for '" + leaseKey + "' (candidate " + candidateId
                            + ") is closed: build a new one to campaign again");
                }
                return campaign.round();
            });
        } finally {
            signalLeadershipChange();
        }
    }

    /**
     * Gives up the lease now if this election holds it: drops the guard first (fenced writes
     * stop), then replaces the record with a vacant one that keeps the epoch, so the next
     * acquisition goes past it. A started election campaigns again at its next round; close it
     * to stop for good.
     *
     * @return whether a record of this election was replaced by a vacant one
     * @throws IllegalStateException if the election is closed
     */
    public boolean resign() {
        return driver.run(() -> {
            if (state == State.CLOSED) {
                throw new IllegalStateException(
                        "election for '" + leaseKey + "' is closed; it resigned when it closed");
            }
            return campaign.resign("resigned");
        });
    }

    /**
     * Resigns only if this election still leads in term {@code epoch}, checked under the round
     * lock, so a later term of this node is never resigned by work of an earlier one (the
     * {@link LeaderTaskRunner}'s task that returns as its term ends).
     *
     * @return whether a record of that term was replaced by a vacant one
     */
    boolean resignTerm(long epoch) {
        return driver.run(() -> state != State.CLOSED
                && campaign.validGuard().filter(g -> g.epoch() == epoch).isPresent()
                && campaign.resign("the leader task of epoch " + epoch + " returned"));
    }

    /**
     * Starts campaigning in the background: a round now, then one every renew interval (fixed
     * delay), on the scheduler supplied to the builder or on a single daemon thread this election
     * owns. Round failures are logged and the rounds go on.
     *
     * @throws IllegalStateException if already started or closed, or if the supplied scheduler is
     *     shut down (the election stays latent)
     */
    public synchronized void start() {
        if (state != State.LATENT) {
            throw new IllegalStateException("election for '" + leaseKey + "' (candidate " + candidateId
                    + ") cannot start: it is " + state.name().toLowerCase(Locale.ROOT) + "; an election starts once");
        }
        state = State.STARTED;
        try {
            // close() cancels the rounds
            var unused = rounds.every(
                    Duration.ZERO,
                    renewInterval,
                    "campaign round for '" + leaseKey + "' (candidate " + candidateId + ")",
                    "retrying next round",
                    this::backgroundRound);
        } catch (IllegalStateException e) {
            state = State.LATENT; // no round runs: nothing started
            throw e;
        }
    }

    /**
     * Stops the rounds, waits for a running round to finish, and resigns (best effort: if the
     * store fails, the lease simply expires). Shuts down the scheduler only if the election owns
     * it; a supplied scheduler and the store stay open. Idempotent.
     */
    @Override
    public void close() {
        synchronized (this) {
            if (state == State.CLOSED) {
                return;
            }
            state = State.CLOSED;
            rounds.close();
        }
        try {
            driver.run(() -> campaign.resign("election closed"));
        } catch (MetaStoreException e) {
            LOG.warn(
                    "election for '{}' (candidate {}) could not resign on close; the lease will expire on its own: {}",
                    leaseKey,
                    candidateId,
                    e.toString());
        } finally {
            signalLeadershipChange();
        }
    }

    /**
     * A fenced store found that the lease record no longer holds {@code rejected}'s bytes. If it
     * is still the published guard, leadership is lost, unless this election's own renewal whose
     * answer was lost did apply and its term has not ended: then that renewal is adopted. Never
     * waits for a round in progress: the rejection is then settled by that round on its way out
     * (it re-reads the record anyway), and the caller's write stays refused. So a worker may call
     * this (through a fenced write) while a "lost" listener waits for that worker.
     */
    @Override
    public void guardRejected(LeaseGuard rejected) {
        driver.guardRejected(Checks.notNull(rejected, "rejected guard"));
    }

    @Override
    public String toString() {
        return "LeaderElection[" + leaseKey + ", candidate=" + candidateId + ", "
                + state.name().toLowerCase(Locale.ROOT) + ", duration=" + leaseDuration + ", renew=" + renewInterval
                + ", margin=" + safetyMargin + "]";
    }

    // ---- rounds -------------------------------------------------------------------------------

    /** One background round; a failure is logged by the rounds, which go on. */
    private void backgroundRound() {
        try {
            driver.run(() -> state != State.CLOSED ? campaign.round() : null);
        } finally {
            signalLeadershipChange();
        }
    }

    // ---- builder ------------------------------------------------------------------------------

    /**
     * Builds a {@link LeaderElection}. Required: store, lease key, candidate id, lease duration.
     * A null or bad value raises {@link InvalidArgumentException} (as in every lake-meta builder),
     * setting an option twice or building without a required one {@link IllegalStateException}.
     * Nothing is built or written when a call throws.
     *
     * @since 0.1.0
     */
    public static final class Builder {
        private @Nullable MetaStore store;
        private @Nullable MetaKey leaseKey;
        private @Nullable String candidateId;
        private final LeaseSettings lease = new LeaseSettings();
        private @Nullable LeadershipListener listener;

        private Builder() {}

        /** The raw store holding the lease (never a fenced store: the election writes the lease itself). The election does not close it. */
        public Builder store(MetaStore store) {
            this.store = Options.setOnce(this.store, store, "store");
            return this;
        }

        /** The key of the lease record. */
        public Builder leaseKey(MetaKey leaseKey) {
            this.leaseKey = Options.setOnce(this.leaseKey, leaseKey, "leaseKey");
            return this;
        }

        /** This candidate's id: unique among live candidates, 1 to 256 characters, not blank. */
        public Builder candidateId(String candidateId) {
            this.candidateId =
                    LeaseSettings.id(Options.setOnce(this.candidateId, candidateId, "candidateId"), "candidateId");
            return this;
        }

        /** How long an installed or renewed lease lasts; at least 1 ms, at most 365 days. */
        public Builder leaseDuration(Duration leaseDuration) {
            lease.leaseDuration(leaseDuration);
            return this;
        }

        /**
         * Delay between background rounds; must be shorter than lease duration minus safety margin,
         * at most 365 days. Default: a third of the lease duration.
         */
        public Builder renewInterval(Duration renewInterval) {
            lease.renewInterval(renewInterval);
            return this;
        }

        /**
         * How much earlier than the lease duration the leader's local view expires; covers the
         * wall-clock disagreement between nodes and the tickers' rate drift (see the guide).
         * Default: zero.
         */
        public Builder safetyMargin(Duration safetyMargin) {
            lease.safetyMargin(safetyMargin);
            return this;
        }

        /** Wall clock for the record's expiry and for judging others' records. Default: UTC system clock. */
        public Builder clock(Clock clock) {
            lease.clock(clock);
            return this;
        }

        /** Monotonic ticker for the local deadline. Default: {@link System#nanoTime()}. */
        public Builder ticker(Ticker ticker) {
            lease.ticker(ticker);
            return this;
        }

        /** Runs background rounds on this scheduler, which the election never shuts down. */
        public Builder scheduler(ScheduledExecutorService scheduler) {
            lease.scheduler(scheduler);
            return this;
        }

        /** A listener registered before any round runs; more can be added later. */
        public Builder listener(LeadershipListener listener) {
            this.listener = Options.setOnce(this.listener, listener, "listener");
            return this;
        }

        /**
         * Where listeners are called: one event at a time, in the order the transitions happened,
         * never while the election holds a lock of its own. Default: one daemon thread of this
         * election's, started on the first event and ended when idle. {@code Runnable::run}
         * delivers on the thread that made the transition, after it released the election's locks.
         *
         * @since 0.1.0
         */
        public Builder listenerExecutor(Executor listenerExecutor) {
            lease.listenerExecutor(listenerExecutor);
            return this;
        }

        /**
         * Builds the election; it campaigns once {@linkplain LeaderElection#start() started}.
         *
         * @throws IllegalStateException if a required option is missing
         * @throws InvalidArgumentException if the safety margin is not shorter than the lease
         *     duration, or the renew interval not shorter than duration minus margin
         */
        public LeaderElection build() {
            Options.required(store, "store");
            Options.required(leaseKey, "leaseKey");
            Options.required(candidateId, "candidateId");
            return new LeaderElection(this, lease.renewIntervalFor("a leader"));
        }
    }
}
