package io.lake.meta.lease;

import io.lake.meta.internal.Listeners;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;
import org.slf4j.Logger;

/**
 * Serializes one candidate's rounds, resignations and guard rejections over its
 * {@link LeaseCampaign}, and delivers the listener events they announce only after the round lock
 * is released. {@link LeaderElection} and {@link LeaseCandidate} both drive their campaign with one.
 *
 * <p>A guard rejection never waits for a round in progress: it is queued, and whoever holds the
 * lock next (the round, on its way out, or the rejecting thread, if the lock is free) settles it.
 * So a listener or a worker may call into the candidate from any thread, at any time, without
 * deadlock.
 */
final class CampaignDriver {

    private final ReentrantLock roundLock = new ReentrantLock();
    private final Queue<LeaseGuard> rejected = new ConcurrentLinkedQueue<>();
    private final LeaseCampaign campaign;
    private final Listeners<LeadershipListener> listeners;
    private final Logger log;

    CampaignDriver(LeaseCampaign campaign, Listeners<LeadershipListener> listeners, Logger log) {
        this.campaign = campaign;
        this.listeners = listeners;
        this.log = log;
    }

    LeaseCampaign campaign() {
        return campaign;
    }

    /** Runs {@code step} under the round lock, then settles queued rejections and delivers the events. */
    <T> T run(Supplier<T> step) {
        roundLock.lock();
        try {
            return step.get();
        } finally {
            roundLock.unlock();
            settleRejections();
            listeners.flush();
        }
    }

    /** Queues the rejection of {@code guard} and settles it now if no round is in progress. Never blocks. */
    void guardRejected(LeaseGuard guard) {
        rejected.add(guard);
        settleRejections();
        listeners.flush();
    }

    private void settleRejections() {
        while (!rejected.isEmpty() && roundLock.tryLock()) {
            try {
                LeaseGuard guard;
                while ((guard = rejected.poll()) != null) {
                    try {
                        campaign.guardRejected(guard);
                    } catch (RuntimeException e) {
                        log.warn(
                                "could not settle the rejection of {}; the guard ends at its deadline: {}",
                                guard,
                                e.toString());
                    }
                }
            } finally {
                roundLock.unlock();
            }
        }
    }
}
