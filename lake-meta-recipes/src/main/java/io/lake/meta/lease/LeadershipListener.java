package io.lake.meta.lease;

/**
 * Hears a candidate gain and lose leadership. Called on the candidate's listener executor (by
 * default one thread of the candidate's), one event at a time, in the order the transitions
 * happened, and never while the candidate holds a lock of its own: a listener may call back into
 * the election (resign, stop a worker that is itself in a fenced write) without deadlock. A slow
 * listener delays only later events. A listener's exception is logged and does not stop the
 * election.
 *
 * <p>Events are informational: the guard ({@link LeaderElection#currentGuard()}) is authoritative,
 * and it stops being valid at its deadline even if the "lost" event is delivered later.
 *
 * @since 0.1.0
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
