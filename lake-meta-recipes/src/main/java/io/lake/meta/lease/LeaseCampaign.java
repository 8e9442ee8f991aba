package io.lake.meta.lease;

import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaStoreException;
import io.lake.meta.MetaValue;
import io.lake.meta.Mutation;
import io.lake.meta.OutcomeUnknownException;
import io.lake.meta.Ticker;
import io.lake.meta.WriteResult;
import io.lake.meta.internal.Listeners;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.Executor;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;

/**
 * What a candidate does to the lease record: the campaign round (renew, acquire or follow), the
 * renewal-only round, the reaction to a fenced rejection, and resignation; it publishes the guard
 * and tells the listeners. The terms it may lead in come from its {@link TermMemory}. Both
 * {@link LeaderElection} and {@link LeaseCandidate} (which the fenced lock runs) drive one.
 *
 * <p>Not thread-safe except {@link #validGuard()} and {@link #status()}: the owner's round lock
 * serializes everything else.
 */
final class LeaseCampaign {

    /** The owner's logger (the public class, where users configure logging). */
    private final Logger log;

    private final MetaStore store;
    private final MetaKey leaseKey;
    private final String candidateId;
    private final Clock clock;
    private final Ticker ticker;
    private final long recordDurationMillis;
    private final long localValidityNanos;
    private final Listeners<LeadershipListener> listeners;
    private final TermMemory terms;

    /** The published guard; null when this candidate does not consider itself leader. */
    private volatile @Nullable LeaseGuard guard;

    /**
     * @param leaseDuration how long an installed record lasts (its wall-clock expiry is rounded
     *     up to whole milliseconds: a longer expiry only makes others wait longer)
     * @param safetyMargin how much earlier than {@code leaseDuration} the local deadline falls
     */
    LeaseCampaign(
            MetaStore store,
            MetaKey leaseKey,
            String candidateId,
            Clock clock,
            Ticker ticker,
            Duration leaseDuration,
            Duration safetyMargin,
            Listeners<LeadershipListener> listeners,
            Logger log) {
        this.store = store;
        this.leaseKey = leaseKey;
        this.candidateId = candidateId;
        this.clock = clock;
        this.ticker = ticker;
        long millis = leaseDuration.toMillis();
        this.recordDurationMillis = Duration.ofMillis(millis).equals(leaseDuration) ? millis : millis + 1;
        this.localValidityNanos = leaseDuration.minus(safetyMargin).toNanos();
        this.listeners = listeners;
        this.log = log;
        this.terms = new TermMemory(leaseKey);
    }

    /**
     * The listener list of one candidate: the campaign posts its transitions under the owner's
     * round lock, and the owner's {@link CampaignDriver} flushes them once it released that lock.
     */
    static Listeners<LeadershipListener> listeners(Executor executor, Logger log) {
        return new Listeners<>("leadership listener", executor, log);
    }

    /** The published guard while its local deadline has not passed. No I/O. */
    Optional<LeaseGuard> validGuard() {
        LeaseGuard g = guard;
        return g != null && g.isValidAt(ticker.read()) ? Optional.of(g) : Optional.empty();
    }

    /** One read of the record: leader only while the valid guard's bytes are the record. */
    LeadershipStatus status() {
        Optional<MetaValue> current = store.get(leaseKey);
        Optional<LeaseGuard> g = validGuard();
        if (current.isPresent() && g.isPresent() && g.get().leaseBytes().equals(current.get())) {
            return new LeadershipStatus.Leader(g.get().epoch());
        }
        return observed(current);
    }

    /** Reads the record, then renews, acquires or follows (see {@link LeaderElection}). */
    LeadershipStatus round() {
        return round(true);
    }

    /**
     * Reads the record and renews it if it holds this candidate's live term; never starts a term.
     * A holder that must not lead again on its own (a lock's hold) renews with this: once its term
     * ended, it only follows.
     */
    LeadershipStatus renewal() {
        return round(false);
    }

    private LeadershipStatus round(boolean mayStartTerm) {
        endTermIfExpired();
        Optional<MetaValue> current = store.get(leaseKey);
        if (current.isEmpty()) {
            terms.forget();
            loseIfLeading("the lease record disappeared");
            // Absent normally means "never used" (epoch 0). If it was deleted, at least this
            // candidate does not go back to an epoch it has seen.
            return mayStartTerm ? install(Optional.empty(), terms.nextTerm(0), false) : new LeadershipStatus.Vacant(0);
        }
        MetaValue bytes = current.get();
        LeaseInstallation own = terms.own(bytes);
        if (own != null) {
            terms.installed(own);
            if (terms.renewable(own, ticker.read())) {
                // Renewal keeps the term. (With no guard published, this adopts a write whose
                // answer was lost but which did apply: the next line publishes it.)
                return install(current, own.epoch(), true);
            }
            // Our own record, but its term ended (listeners heard "lost", or the deadline passed
            // during this round's read: announce it now, so term 1 is recorded as ended before
            // term 2 starts): leading again is a new term.
            loseIfLeading("local lease deadline passed before a renewal succeeded");
            return mayStartTerm ? install(current, terms.nextTerm(own.epoch()), false) : observed(current);
        }
        terms.forget();
        loseIfLeading("the lease record changed: another candidate took over");
        LeaseRecord record = LeaseRecord.decode(leaseKey, bytes);
        terms.saw(record.epoch());
        if (mayStartTerm && record.isFreeAt(clock.millis())) {
            return install(current, terms.nextTerm(record.epoch()), false);
        }
        return observed(current);
    }

    /** See {@link LeaderElection#guardRejected(LeaseGuard)}. */
    void guardRejected(LeaseGuard rejected) {
        if (guard != rejected) {
            return; // already replaced (a renewal) or dropped
        }
        if (endTermIfExpired()) {
            return; // the deadline ended the term first: nothing may be adopted into it
        }
        LeaseInstallation maybe = terms.unresolved();
        if (maybe != null && maybe.epoch() == rejected.epoch() && adoptIfInstalled(maybe)) {
            return; // our own renewal whose answer was lost did apply: the caller may retry with it
        }
        // The lost renewal, if it applied, stays recognisable: the next round sees the term
        // ended and starts a new one over it rather than following its own record.
        terms.forgetInstalled();
        dropGuard("a fenced write found the lease record changed (taken over or removed)");
    }

    /**
     * Drops the guard, then replaces this election's record (installed, or written with a lost
     * answer) with a vacant one that keeps the epoch.
     *
     * @return whether a record of this election was replaced
     */
    boolean resign(String reason) {
        LeaseInstallation own = terms.installed();
        LeaseInstallation maybe = terms.unresolved();
        dropGuard(reason);
        terms.forget();
        if (own == null && maybe == null) {
            return false;
        }
        Optional<MetaValue> current = store.get(leaseKey);
        if (current.isEmpty()) {
            return false;
        }
        LeaseInstallation mine = own != null && own.bytes().equals(current.get())
                ? own
                : maybe != null && maybe.bytes().equals(current.get()) ? maybe : null;
        if (mine == null) {
            return false;
        }
        terms.saw(mine.epoch());
        MetaValue vacant =
                LeaseRecord.vacant(mine.epoch(), clock.millis(), nonce()).encode();
        boolean applied =
                store.apply(Mutation.update(leaseKey, mine.bytes(), vacant)).isApplied();
        if (applied) {
            log.info("candidate {} resigned '{}' in epoch {}", candidateId, leaseKey, mine.epoch());
        }
        return applied;
    }

    /**
     * Publishes {@code attempt} as the guard if its term is live, the record holds its bytes and
     * its deadline has not passed.
     */
    private boolean adoptIfInstalled(LeaseInstallation attempt) {
        if (!terms.isLive(attempt.epoch())) {
            return false;
        }
        Optional<MetaValue> current;
        try {
            current = store.get(leaseKey);
        } catch (MetaStoreException e) {
            return false; // cannot tell: fail closed
        }
        if (current.isEmpty() || !current.get().equals(attempt.bytes()) || attempt.expiredAt(ticker.read())) {
            return false;
        }
        terms.installed(attempt);
        guard = attempt.guardUnder(leaseKey);
        return true;
    }

    /**
     * The local deadline ends a term, whoever notices first (a round or a fenced rejection):
     * announces "lost" for it.
     *
     * @return whether the published guard had expired and was dropped
     */
    private boolean endTermIfExpired() {
        LeaseGuard held = guard;
        if (held != null && !held.isValidAt(ticker.read())) {
            dropGuard("local lease deadline passed before a renewal succeeded");
            return true;
        }
        return false;
    }

    /** Compare-and-sets a record held by this candidate over {@code expected}; publishes the guard. */
    @SuppressWarnings("JavaInstantGetSecondsGetNano") // only the instant's sub-millisecond part is wanted
    private LeadershipStatus install(Optional<MetaValue> expected, long epoch, boolean renewal) {
        long sentAt = ticker.read();
        Instant wallNow = clock.instant();
        long expiresAt = saturatedAdd(wallNow.toEpochMilli(), recordDurationMillis);
        // The record's expiry counts from the wall time truncated to the millisecond; count the
        // holder's own deadline from the same truncated instant (round it down, never up), so on
        // one clock with zero margin the holder stops before anyone may take over.
        long truncatedNanos = wallNow.getNano() % 1_000_000L;
        MetaValue next =
                LeaseRecord.held(candidateId, epoch, expiresAt, nonce()).encode();
        LeaseInstallation attempt = new LeaseInstallation(next, epoch, sentAt - truncatedNanos + localValidityNanos);
        Mutation mutation = expected.isPresent()
                ? Mutation.update(leaseKey, expected.get(), next)
                : Mutation.create(leaseKey, next);
        WriteResult result;
        try {
            result = store.apply(mutation);
        } catch (OutcomeUnknownException e) {
            terms.sent(attempt);
            throw e;
        }
        if (result.isApplied()) {
            terms.installed(attempt);
            LeaseGuard fresh = attempt.guardUnder(leaseKey);
            if (guard != null && guard.epoch() != epoch) {
                dropGuard("a new term started"); // never move from one term to the next without "lost"
            }
            boolean wasLeading = guard != null;
            guard = fresh;
            if (!wasLeading) {
                log.info("candidate {} leads '{}' in epoch {}", candidateId, leaseKey, epoch);
                listeners.post("gained", l -> l.gained(fresh));
            }
            return new LeadershipStatus.Leader(epoch);
        }
        terms.forget();
        loseIfLeading(renewal ? "renewal lost a race: the lease record changed" : "lost the race for the lease");
        LeadershipStatus winner = observed(result.isCurrentKnown() ? result.currentValue() : store.get(leaseKey));
        terms.saw(winner.epoch());
        return winner;
    }

    private LeadershipStatus observed(Optional<MetaValue> current) {
        if (current.isEmpty()) {
            return new LeadershipStatus.Vacant(0);
        }
        LeaseRecord record = LeaseRecord.decode(leaseKey, current.get());
        if (record.isFreeAt(clock.millis())) {
            return new LeadershipStatus.Vacant(record.epoch());
        }
        return new LeadershipStatus.Follower(record.holder().orElseThrow(), record.epoch());
    }

    private void loseIfLeading(String reason) {
        if (guard != null) {
            dropGuard(reason);
        }
    }

    /** Ends the published guard's term: it is never led again, and listeners hear "lost". */
    private void dropGuard(String reason) {
        LeaseGuard g = guard;
        guard = null;
        if (g != null) {
            terms.ended(g.epoch());
            log.info("candidate {} no longer leads '{}' (epoch {}): {}", candidateId, leaseKey, g.epoch(), reason);
            listeners.post("lost", l -> l.lost(g.epoch(), reason));
        }
    }

    private static String nonce() {
        return UUID.randomUUID().toString();
    }

    private static long saturatedAdd(long a, long b) {
        long r = a + b;
        return ((a ^ r) & (b ^ r)) < 0 ? Long.MAX_VALUE : r;
    }
}
