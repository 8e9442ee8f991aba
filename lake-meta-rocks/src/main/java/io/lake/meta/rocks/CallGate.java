package io.lake.meta.rocks;

import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.IntConsumer;

/**
 * Lets calls use the store's native handles until it closes, and lets the close
 * {@linkplain #refuseNewCalls() refuse new calls} and {@linkplain #awaitDrained() wait} for those
 * in flight. A call costs one increment and one decrement of a counter stripe chosen by its
 * thread (no shared word that concurrent readers would fight over), plus two volatile reads.
 *
 * <p>Why the drain check cannot under-count: a call leaves through the stripe it entered by (the
 * slot {@link #enter()} returns), so every stripe always holds at least the number of calls inside
 * it, and never less than zero. A check that reads every stripe as zero, one after another, has
 * therefore seen each stripe at a moment when no call was inside it. A call counted nowhere
 * incremented its stripe after the check read it, so after {@code closing} was written; it then
 * reads {@code closing} (sequentially consistent volatile accesses) and leaves without touching
 * anything. A striped sum that lets a call leave through another stripe than it entered by (as
 * {@code LongAdder} may, when contention moves a thread to another cell) can read one call's
 * decrement without its increment and report zero while another call is inside.
 */
final class CallGate {

    /** Returned by {@link #enter()} when the store is closing: there is nothing to leave. */
    static final int REFUSED = -1;

    private static final int PADDING = 16; // longs from one stripe to the next: 128 bytes, no false sharing

    private final AtomicLongArray stripes;
    private final int mask;
    private final IntConsumer afterStripeChecked;
    private final Object drained = new Object();
    private volatile boolean closing;

    CallGate() {
        this(Math.max(8, Integer.highestOneBit(4 * Runtime.getRuntime().availableProcessors() - 1) << 1), stripe -> {});
    }

    /** For tests: {@code stripes} (a power of two), and a hook run after the drain check found a stripe empty. */
    CallGate(int stripes, IntConsumer afterStripeChecked) {
        if (Integer.bitCount(stripes) != 1) {
            throw new IllegalArgumentException("stripes must be a power of two, got " + stripes);
        }
        this.stripes = new AtomicLongArray(stripes * PADDING);
        this.mask = stripes - 1;
        this.afterStripeChecked = afterStripeChecked;
    }

    /** Enters a call; the slot to {@link #leave} by, or {@link #REFUSED} (nothing to leave) when the store is closing. */
    int enter() {
        if (closing) {
            return REFUSED;
        }
        int slot = slotOf(Thread.currentThread());
        stripes.getAndIncrement(slot);
        if (closing) {
            leave(slot);
            return REFUSED;
        }
        return slot;
    }

    /** Leaves a call that {@link #enter()} let in, by the slot it returned. */
    void leave(int slot) {
        stripes.getAndDecrement(slot);
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
            while (!isDrained()) {
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

    /** Whether no call is inside; meaningful once new calls are refused. */
    boolean isDrained() {
        for (int stripe = 0; stripe <= mask; stripe++) {
            if (stripes.get(stripe * PADDING) != 0) {
                return false;
            }
            afterStripeChecked.accept(stripe);
        }
        return true;
    }

    /** The slot of {@code stripe}; for tests. */
    int slotOfStripe(int stripe) {
        return stripe * PADDING;
    }

    /** The slot of the stripe {@code thread} uses. */
    int slotOf(Thread thread) {
        long mixed = thread.getId() * 0x9E3779B97F4A7C15L; // spreads consecutive thread ids over the stripes
        return ((int) (mixed >>> 32) & mask) * PADDING;
    }
}
