package io.lake.meta.rocks;

import java.util.concurrent.atomic.LongAdder;

/**
 * Lets calls use the store's native handles until it closes, and lets the close
 * {@linkplain #refuseNewCalls() refuse new calls} and {@linkplain #awaitDrained() wait} for those in flight. A call costs one increment and one decrement of a striped counter
 * (no shared lock word that concurrent readers would fight over), plus a volatile read.
 *
 * <p>Why it is safe: a call increments, then reads {@code closing}; close writes {@code closing},
 * then sums the counter. Both are sequentially consistent volatile accesses, so a call either sees
 * the store closing (and leaves without touching anything) or is counted by close, which then
 * waits until it has left.
 */
final class CallGate {

    private final LongAdder inFlight = new LongAdder();
    private final Object drained = new Object();
    private volatile boolean closing;

    /** Enters a call; false (and nothing to leave) when the store is closing. */
    boolean enter() {
        if (closing) {
            return false;
        }
        inFlight.increment();
        if (closing) {
            leave();
            return false;
        }
        return true;
    }

    /** Leaves a call that {@link #enter()} let in. */
    void leave() {
        inFlight.decrement();
        if (closing) {
            synchronized (drained) {
                drained.notifyAll();
            }
        }
    }

    /** Refuses new calls from now on. */
    void refuseNewCalls() {
        closing = true;
    }

    /** Waits until every call let in has left; interrupts are remembered, not obeyed. */
    void awaitDrained() {
        boolean interrupted = false;
        synchronized (drained) {
            while (inFlight.sum() != 0) {
                try {
                    drained.wait();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
