package io.lake.meta.lease;

/**
 * Hears a candidate gain and lose leadership. Called on the thread that ran the campaign round
 * (or the fenced write that found the lease gone), one event at a time and in order; keep it
 * short and do not block. A listener's exception is logged and does not stop the election.
 *
 * <p>Events are informational: the guard ({@link LeaderElection#currentGuard()}) is authoritative,
 * and it stops being valid at its deadline even if the "lost" event is delivered later.
 */
public interface LeadershipListener {

    /** This candidate became leader with {@code guard}. */
    void gained(LeaseGuard guard);

    /**
     * This candidate stopped leading in term {@code epoch}.
     *
     * @param reason why, for logs: deadline passed, taken over, resigned, closed...
     */
    void lost(long epoch, String reason);
}
