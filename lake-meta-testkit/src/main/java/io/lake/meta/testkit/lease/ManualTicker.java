package io.lake.meta.testkit.lease;

import io.lake.meta.Ticker;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A monotonic ticker that moves only when a test moves it. Thread-safe.
 *
 * @since 0.1.0
 */
public final class ManualTicker implements Ticker {

    private final AtomicLong nanos;

    /** Starts near the top of the range, so the election's overflow-safe comparisons are exercised. */
    public ManualTicker() {
        this(Long.MAX_VALUE - Duration.ofHours(1).toNanos());
    }

    /** A ticker reading {@code startNanos} until advanced. */
    public ManualTicker(long startNanos) {
        this.nanos = new AtomicLong(startNanos);
    }

    /** Moves the ticker forward by {@code d}. */
    public void advance(Duration d) {
        if (d.isNegative()) {
            throw new IllegalArgumentException("a monotonic ticker never goes back");
        }
        nanos.addAndGet(d.toNanos());
    }

    @Override
    public long read() {
        return nanos.get();
    }
}
