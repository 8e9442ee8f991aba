package io.lake.meta.lock;

/**
 * Hears a hold end without being released: its local deadline passed before a renewal, another
 * holder took the lock over, or the store refused a write under it. Called once per hold on the
 * lock's listener executor (by default one thread of the lock's), in the order the losses
 * happened, never while the lock holds a lock of its own: a listener may stop a worker that is
 * itself in a write under the hold, or call into the lock. A listener's exception is logged and
 * does not stop the lock.
 *
 * <p>Informational: {@link LockHold#isHeld()} is authoritative, and the hold's view refuses writes
 * from the deadline on even if this event is delivered later.
 *
 * @since 0.1.0
 */
@FunctionalInterface
public interface LockListener {

    /**
     * {@code hold} is no longer held.
     *
     * @param reason why, for logs: deadline passed, taken over...
     */
    void lost(LockHold hold, String reason);
}
