package io.lake.meta.lock;

/**
 * Hears a hold end without being released: its local deadline passed before a renewal, another
 * holder took the lock over, or the store refused a write under it. Called on the thread that
 * noticed (a renewal, an acquisition, or a fenced write), once per hold; keep it short and do not
 * block. A listener's exception is logged and does not stop the lock.
 *
 * <p>Informational: {@link LockHold#isHeld()} is authoritative, and the hold's view refuses writes
 * from the deadline on even if this event is delivered later.
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
