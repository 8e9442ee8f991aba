package io.lake.meta.testkit.lease;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A wall clock that moves only when a test moves it. Thread-safe.
 *
 * @since 0.1.0
 */
public final class ManualClock extends Clock {

    private final AtomicLong millis;

    /** A clock reading {@code startMillis} until advanced. */
    public ManualClock(long startMillis) {
        this.millis = new AtomicLong(startMillis);
    }

    /** Moves the clock by {@code d} (a negative duration steps it back, as NTP may). */
    public void advance(Duration d) {
        millis.addAndGet(d.toMillis());
    }

    @Override
    public long millis() {
        return millis.get();
    }

    @Override
    public Instant instant() {
        return Instant.ofEpochMilli(millis.get());
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException("a manual clock is always UTC");
    }
}
