package io.lake.meta.testserver.dynamodb.fault;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * A fault in a plan, with how often it fired. Thread-safe.
 *
 * @since 0.1.0
 */
public final class ArmedFault {

    private final Fault fault;
    private final AtomicInteger remaining;
    private final AtomicInteger fired = new AtomicInteger();

    ArmedFault(Fault fault) {
        this.fault = fault;
        this.remaining = new AtomicInteger(fault.times());
    }

    /** The fault this arming injects. */
    public Fault fault() {
        return fault;
    }

    /** How many requests this fault hit so far. */
    public int fired() {
        return fired.get();
    }

    /** Whether the fault will hit no more requests. */
    public boolean exhausted() {
        return remaining.get() <= 0;
    }

    boolean tryFire() {
        while (true) {
            int left = remaining.get();
            if (left <= 0) {
                return false;
            }
            if (left == Integer.MAX_VALUE || remaining.compareAndSet(left, left - 1)) {
                fired.incrementAndGet();
                return true;
            }
        }
    }

    @Override
    public String toString() {
        return fault + " fired=" + fired();
    }
}
