package io.lake.meta.lease;

import io.lake.meta.InvalidArgumentException;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaStoreException;
import io.lake.meta.OutcomeUnknownException;
import io.lake.meta.Ticker;
import io.lake.meta.internal.Checks;
import io.lake.meta.internal.LeaseSettings;
import io.lake.meta.internal.Listeners;
import io.lake.meta.internal.Options;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Executor;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One candidate for one lease key, driven by its caller: the same campaign rounds as
 * {@link LeaderElection} (renew, acquire or follow, on the exact bytes of a {@link LeaseRecord};
 * one term per epoch; a new term past every epoch seen), without its schedule or lifecycle. It is
 * the building block for recipes that decide for themselves when a candidate may start a term,
 * such as {@code io.lake.meta.lock.FencedLock}, which acquires once per hold and then only renews:
 * <ul>
 *   <li>{@link #campaignOnce()} renews this candidate's live term, or starts a new term when the
 *       record is free (absent, vacant, expired, or this candidate's own of an ended term);</li>
 *   <li>{@link #renewOnce()} renews the live term and never starts one: once the term ended, it
 *       only follows.</li>
 * </ul>
 *
 * <p>Thread-safe: rounds and resignation are serialized; a guard rejection never waits for a
 * round (see {@link LeaderElection#guardRejected}). Listeners run on the listener executor, never
 * under the candidate's lock. Building does no I/O;
 * the store is the caller's and is never closed.
 *
 * @since 0.1.0
 */
public final class LeaseCandidate implements LeaseAuthority {

    private static final Logger LOG = LoggerFactory.getLogger(LeaseCandidate.class);

    private final MetaKey leaseKey;
    private final String candidateId;
    private final Listeners<LeadershipListener> listeners;
    /** Guarded by the driver's round lock, except its guard reads. */
    private final LeaseCampaign campaign;

    private final CampaignDriver driver;

    private LeaseCandidate(Builder b) {
        // build() checked the required options
        this.leaseKey = Options.required(b.leaseKey, "leaseKey");
        this.candidateId = Options.required(b.candidateId, "candidateId");
        this.listeners =
                LeaseCampaign.listeners(b.lease.listenerExecutor("lake-meta-candidate-listener-" + candidateId), LOG);
        this.campaign = new LeaseCampaign(
                Options.required(b.store, "store"),
                leaseKey,
                candidateId,
                b.lease.clock(),
                b.lease.ticker(),
                b.lease.leaseDuration(),
                b.lease.marginFor("a holder"),
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

    /**
     * Adds a listener; it hears events from the next transition on.
     *
     * @throws InvalidArgumentException if {@code listener} is null
     */
    public void addListener(LeadershipListener listener) {
        listeners.add(listener);
    }

    /** The freshest guard, or empty when no term is held or its local deadline has passed. No I/O. */
    @Override
    public Optional<LeaseGuard> currentGuard() {
        return campaign.validGuard();
    }

    /**
     * One round that may start a term: renews the live term, acquires a free record in a new
     * term, or follows.
     *
     * @return the status this round established
     * @throws LeaseEpochExhaustedException if the lease is free but at the maximum epoch; nothing written
     * @throws CorruptLeaseRecordException if the lease key holds no valid record; nothing written
     * @throws OutcomeUnknownException if the lease write's answer was lost; the next round resolves it
     * @throws MetaStoreException any other store failure; the current guard stays valid until its deadline
     */
    public LeadershipStatus campaignOnce() {
        return driver.run(campaign::round);
    }

    /**
     * One round that renews this candidate's live term and never starts one: once the term ended
     * (deadline passed, taken over, resigned), it writes nothing and reports who holds the record.
     *
     * @return the status this round established
     * @throws CorruptLeaseRecordException if the lease key holds no valid record; nothing written
     * @throws OutcomeUnknownException if the renewal's answer was lost; the next round resolves it
     * @throws MetaStoreException any other store failure; the current guard stays valid until its deadline
     */
    public LeadershipStatus renewOnce() {
        return driver.run(campaign::renewal);
    }

    /**
     * Gives up the lease if this candidate holds it (or may hold it after a lost answer): drops
     * the guard first, then replaces the record with a vacant one that keeps the epoch.
     *
     * @return whether a record of this candidate was replaced by a vacant one
     */
    public boolean resign() {
        return driver.run(() -> campaign.resign("resigned"));
    }

    /** See {@link LeaderElection#guardRejected(LeaseGuard)}. */
    @Override
    public void guardRejected(LeaseGuard rejected) {
        driver.guardRejected(Checks.notNull(rejected, "rejected guard"));
    }

    /** See {@link LeaderElection#status()}. */
    public LeadershipStatus status() {
        return campaign.status();
    }

    @Override
    public String toString() {
        return "LeaseCandidate[" + leaseKey + ", candidate=" + candidateId + "]";
    }

    /**
     * Builds a {@link LeaseCandidate}. Required: store, lease key, candidate id, lease duration.
     * A null or bad value raises {@link InvalidArgumentException}; setting an option twice or
     * building without a required one {@link IllegalStateException}.
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

        /** The raw store holding the lease; never closed by the candidate. */
        public Builder store(MetaStore store) {
            this.store = Options.setOnce(this.store, store, "store");
            return this;
        }

        /** The key of the lease record. */
        public Builder leaseKey(MetaKey leaseKey) {
            this.leaseKey = Options.setOnce(this.leaseKey, leaseKey, "leaseKey");
            return this;
        }

        /** This candidate's id, written into the record: 1 to 256 characters, not blank. */
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

        /** How much earlier than the lease duration the local deadline falls; zero to 365 days. Default: zero. */
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

        /** A listener registered before any round runs; more can be added later. */
        public Builder listener(LeadershipListener listener) {
            this.listener = Options.setOnce(this.listener, listener, "listener");
            return this;
        }

        /**
         * Where listeners are called; see {@link LeaderElection.Builder#listenerExecutor}. Default:
         * one daemon thread of this candidate's, started on the first event and ended when idle.
         *
         * @since 0.1.0
         */
        public Builder listenerExecutor(Executor listenerExecutor) {
            lease.listenerExecutor(listenerExecutor);
            return this;
        }

        /**
         * Builds the candidate; it does nothing until asked.
         *
         * @throws IllegalStateException if a required option is missing
         * @throws InvalidArgumentException if the safety margin is not shorter than the lease duration
         */
        public LeaseCandidate build() {
            Options.required(store, "store");
            Options.required(leaseKey, "leaseKey");
            Options.required(candidateId, "candidateId");
            lease.marginFor("a holder"); // renewing is the caller's
            return new LeaseCandidate(this);
        }
    }
}
