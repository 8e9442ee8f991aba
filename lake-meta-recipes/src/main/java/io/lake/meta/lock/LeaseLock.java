package io.lake.meta.lock;

import io.lake.meta.InvalidArgumentException;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaStoreException;
import io.lake.meta.OutcomeUnknownException;
import io.lake.meta.Ticker;
import io.lake.meta.internal.BackgroundRounds;
import io.lake.meta.internal.Listeners;
import io.lake.meta.lease.LeadershipListener;
import io.lake.meta.lease.LeadershipStatus;
import io.lake.meta.lease.LeaseCandidate;
import io.lake.meta.lease.LeaseGuard;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link FencedLock} on a {@link LeaseCandidate}: an acquisition runs the candidate's campaign
 * rounds until one leads, and that term is the hold; background renewals run the candidate's
 * renewal-only round, so a hold that ended is never re-acquired behind the holder's back.
 */
final class LeaseLock implements FencedLock {

    private static final Logger LOG = LoggerFactory.getLogger(FencedLock.class);

    private final MetaStore store;
    private final MetaKey key;
    private final String holderId;
    private final LeaseCandidate candidate;
    private final Ticker ticker;
    private final Duration renewInterval;
    private final Duration retryInterval;
    private final BackgroundRounds rounds;
    /** Told on the candidate's listener executor (termEnded), so directly there: already off every lock. */
    private final Listeners<LockListener> listeners = new Listeners<>("lock listener", Runnable::run, LOG);
    /**
     * Serializes acquisition rounds, renewals, releases and the lifecycle. Always taken before the
     * candidate's own lock. Guard rejections take neither (the candidate settles them without
     * waiting), and the candidate's events arrive on its listener executor, outside both.
     */
    private final ReentrantLock mutex;
    /** The candidate's listener executor: holds deliveries back while this thread holds the mutex. */
    private final MutexAwareDelivery delivery;
    /** Holds made and not yet ended, by epoch: a "lost" event finds its hold even after a newer one was made. */
    private final Map<Long, LeaseHold> unended = new ConcurrentHashMap<>();

    private volatile State state = State.LATENT;
    /** The latest hold (live or ended); guarded by mutex, read without it. */
    private volatile @Nullable LeaseHold hold;
    /** Guarded by mutex. */
    private @Nullable Acquisition acquiring;

    LeaseLock(
            MetaStore store,
            MetaKey key,
            String holderId,
            LeaseCandidate candidate,
            Ticker ticker,
            Duration renewInterval,
            Duration retryInterval,
            @Nullable ScheduledExecutorService scheduler,
            @Nullable LockListener listener,
            ReentrantLock mutex,
            MutexAwareDelivery delivery) {
        this.mutex = mutex;
        this.delivery = delivery;
        this.store = store;
        this.key = key;
        this.holderId = holderId;
        this.candidate = candidate;
        this.ticker = ticker;
        this.renewInterval = renewInterval;
        this.retryInterval = retryInterval;
        this.rounds = BackgroundRounds.of(scheduler, "lake-meta-lock-" + key, LOG);
        if (listener != null) {
            listeners.add(listener);
        }
        candidate.addListener(new LeadershipListener() {
            @Override
            public void gained(LeaseGuard guard) {
                // the acquisition round that led makes the hold
            }

            @Override
            public void lost(long epoch, String reason) {
                termEnded(epoch, reason);
            }
        });
    }

    @Override
    public MetaKey key() {
        return key;
    }

    @Override
    public String holderId() {
        return holderId;
    }

    @Override
    public State state() {
        return state;
    }

    @Override
    public void addListener(LockListener listener) {
        listeners.add(listener);
    }

    @Override
    public Optional<LockHold> currentHold() {
        LeaseHold h = hold;
        return h != null && h.isHeld() ? Optional.of(h) : Optional.empty();
    }

    @Override
    public void start() {
        mutex.lock();
        try {
            if (state != State.LATENT) {
                throw new IllegalStateException("lock '" + key + "' (holder " + holderId + ") cannot start: it is "
                        + state.name().toLowerCase(Locale.ROOT) + "; a lock starts once");
            }
            state = State.STARTED;
            try {
                // close() cancels the rounds
                var unused = rounds.every(
                        renewInterval,
                        renewInterval,
                        "renewal of lock '" + key + "' (holder " + holderId + ")",
                        "the hold stays valid until its deadline",
                        this::renewalTick);
            } catch (IllegalStateException e) {
                state = State.LATENT; // no renewal runs: nothing started
                throw e;
            }
        } finally {
            unlock();
        }
    }

    @Override
    public LockHold acquire(Duration timeout) throws InterruptedException {
        if (timeout == null || timeout.isNegative()) {
            throw new InvalidArgumentException("timeout must be zero or positive, got " + timeout);
        }
        Acquisition a = begin(timeout);
        try {
            return a.answer.get().orElseThrow(() -> new LockTimeoutException(key, timeout, a.lastSeen));
        } catch (InterruptedException e) {
            abandon(a);
            throw e;
        } catch (ExecutionException e) {
            throw rethrown(e.getCause());
        }
    }

    @Override
    public Optional<LockHold> tryAcquire() {
        Acquisition a = begin(Duration.ZERO);
        try {
            return a.answer.join(); // a zero timeout answers in its first round, on this thread
        } catch (CompletionException e) {
            throw rethrown(e.getCause());
        }
    }

    @Override
    public void close() {
        mutex.lock();
        try {
            if (state == State.CLOSED) {
                return;
            }
            state = State.CLOSED;
            rounds.close();
            Acquisition a = acquiring;
            if (a != null) {
                giveUp(a);
                a.answer.completeExceptionally(
                        new IllegalStateException("lock '" + key + "' was closed while acquiring"));
            }
            LeaseHold h = hold;
            if (h != null && !h.released()) {
                h.markReleased();
                hold = null;
                try {
                    candidate.resign();
                } catch (MetaStoreException e) {
                    LOG.warn(
                            "lock '{}' (holder {}) could not release on close; the record will expire on its own: {}",
                            key,
                            holderId,
                            e.toString());
                }
            }
        } finally {
            unlock();
        }
    }

    @Override
    public String toString() {
        return "FencedLock[" + key + ", holder=" + holderId + ", "
                + state.name().toLowerCase(Locale.ROOT) + ", renew=" + renewInterval + ", retry=" + retryInterval + "]";
    }

    // ---- for LeaseHold --------------------------------------------------------------------------

    /** The candidate's valid guard if it belongs to term {@code epoch}. No I/O. */
    Optional<LeaseGuard> guardOf(long epoch) {
        return candidate.currentGuard().filter(g -> g.epoch() == epoch);
    }

    /** Releases the mutex, then delivers the listener events held back while it was held. */
    private void unlock() {
        mutex.unlock();
        delivery.released();
    }

    /** {@code h} was released: no "lost" may be announced for it. */
    void forget(LeaseHold h) {
        unended.remove(h.epoch(), h);
    }

    boolean renew(LeaseHold h) {
        mutex.lock();
        try {
            if (h.ended() || hold != h) {
                return false;
            }
            candidate.renewOnce();
            return h.isHeld();
        } finally {
            unlock();
        }
    }

    boolean release(LeaseHold h) {
        mutex.lock();
        try {
            if (h.released()) {
                return false;
            }
            h.markReleased(); // the view refuses writes from here on, before any I/O
            if (hold != h) {
                return false;
            }
            hold = null;
            boolean vacated = candidate.resign();
            LOG.info("holder {} released lock '{}' (epoch {})", holderId, key, h.epoch());
            return vacated;
        } finally {
            unlock();
        }
    }

    /** Never waits: a fenced write under a hold may be the work a "lost" listener is waiting for. */
    void guardRejected(LeaseGuard guard) {
        candidate.guardRejected(guard);
    }

    // ---- acquisition ----------------------------------------------------------------------------

    private Acquisition begin(Duration timeout) {
        mutex.lock();
        try {
            if (state != State.STARTED) {
                throw new IllegalStateException("lock '" + key + "' (holder " + holderId + ") is "
                        + state.name().toLowerCase(Locale.ROOT)
                        + (state == State.LATENT
                                ? ": start() it before acquiring, so that its holds are renewed"
                                : ": build a new one to acquire again"));
            }
            LeaseHold h = hold;
            if (h != null && h.isHeld()) {
                throw new IllegalStateException("lock '" + key + "' is already held by this lock object (epoch "
                        + h.epoch() + "): release that hold first; a lock object is one holder");
            }
            if (acquiring != null) {
                throw new IllegalStateException("lock '" + key + "' is being acquired by another thread through this"
                        + " lock object; a lock object is one holder: give each thread its own lock object");
            }
            Acquisition a = new Acquisition(timeout, ticker.read());
            acquiring = a;
            round(a);
            return a;
        } finally {
            unlock();
        }
    }

    /** One acquisition round; schedules the next while time is left. Under the mutex. */
    private void round(Acquisition a) {
        if (a.isDone() || acquiring != a) {
            return; // abandoned or closed meanwhile
        }
        a.nextRound = null;
        LeadershipStatus status;
        try {
            status = candidate.campaignOnce();
        } catch (OutcomeUnknownException e) {
            a.answerLost = true; // the next round reads the record and resolves it
            a.lastSeen = "the last round's write lost its answer";
            status = null;
        } catch (MetaStoreException e) {
            if (!e.retryable()) {
                giveUp(a); // a corrupt record or exhausted epochs: waiting does not help
                a.answer.completeExceptionally(e);
                return;
            }
            a.lastSeen = "the last round failed: " + e.getMessage();
            status = null;
        } catch (Throwable e) { // an Error or a checked exception too: the caller must be answered, the lock freed
            giveUp(a);
            a.answer.completeExceptionally(e);
            return;
        }
        if (status instanceof LeadershipStatus.Leader leader) {
            LeaseHold h = new LeaseHold(this, store, leader.epoch());
            unended.put(h.epoch(), h);
            hold = h;
            acquiring = null;
            LOG.info("holder {} acquired lock '{}' in epoch {}", holderId, key, leader.epoch());
            a.answer.complete(Optional.of(h));
            return;
        }
        if (status != null) {
            a.lastSeen = describe(status);
        }
        long remaining = a.remainingAt(ticker.read());
        if (remaining <= 0) {
            giveUp(a);
            a.answer.complete(Optional.empty());
            return;
        }
        try {
            a.nextRound = rounds.scheduler()
                    .schedule(
                            () -> scheduledRound(a),
                            Math.min(retryInterval.toNanos(), remaining),
                            TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException e) {
            giveUp(a);
            a.answer.completeExceptionally(new IllegalStateException(
                    "lock '" + key + "': the scheduler refused the next acquisition round (was it shut down?)", e));
        }
    }

    private void scheduledRound(Acquisition a) {
        mutex.lock();
        try {
            round(a);
        } catch (Throwable e) { // an Error or a checked exception too: the waiting caller must be answered
            giveUp(a);
            a.answer.completeExceptionally(e);
            if (e instanceof VirtualMachineError failing) {
                throw failing;
            }
        } finally {
            unlock();
        }
    }

    /**
     * Ends acquisition {@code a} without a hold. If one of its writes lost its answer, that write
     * may have installed a record of ours: resign it, so nobody waits for it to expire.
     */
    private void giveUp(Acquisition a) {
        if (acquiring == a) {
            acquiring = null;
        }
        a.cancelNextRound();
        if (a.answerLost) {
            try {
                candidate.resign();
            } catch (MetaStoreException e) {
                LOG.warn(
                        "lock '{}' (holder {}): could not clear a write whose answer was lost; it expires on its own: {}",
                        key,
                        holderId,
                        e.toString());
            }
        }
    }

    /** The caller stopped waiting (interrupted): nothing may stay held in its name. */
    private void abandon(Acquisition a) {
        mutex.lock();
        try {
            if (!a.isDone()) {
                giveUp(a);
                a.answer.cancel(false);
                return;
            }
        } finally {
            unlock();
        }
        if (a.answer.isCompletedExceptionally()) {
            return; // failed or cancelled: nothing was won
        }
        a.answer.join().ifPresent(h -> {
            try {
                h.release();
            } catch (MetaStoreException e) {
                LOG.warn(
                        "lock '{}' (holder {}): could not release a hold won after its caller was interrupted;"
                                + " it expires on its own: {}",
                        key,
                        holderId,
                        e.toString());
            }
        });
    }

    private static String describe(LeadershipStatus status) {
        if (status instanceof LeadershipStatus.Follower f) {
            return "held by '" + f.holder() + "' in epoch " + f.epoch();
        }
        return "free at epoch " + status.epoch() + ", but another holder won the last round";
    }

    private static RuntimeException rethrown(@Nullable Throwable cause) {
        if (cause instanceof RuntimeException r) {
            return r;
        }
        if (cause instanceof Error e) {
            throw e;
        }
        return new IllegalStateException("acquisition of a lock failed", cause);
    }

    // ---- renewals and loss ----------------------------------------------------------------------

    /** One background renewal; a failure is logged by the rounds, which go on. */
    private void renewalTick() {
        mutex.lock();
        try {
            LeaseHold h = hold;
            if (state == State.STARTED && h != null && !h.ended()) {
                candidate.renewOnce();
            }
        } finally {
            unlock();
        }
    }

    /** The candidate ended term {@code epoch}: on its listener executor, under no lock. */
    private void termEnded(long epoch, String reason) {
        LeaseHold h = unended.remove(epoch);
        if (h != null && h.markLost()) {
            LOG.info("holder {} lost lock '{}' (epoch {}): {}", holderId, key, epoch, reason);
            listeners.post("lost", l -> l.lost(h, reason));
            listeners.flush();
        }
    }
}
