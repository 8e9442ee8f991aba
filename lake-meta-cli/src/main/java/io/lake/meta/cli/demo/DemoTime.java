package io.lake.meta.cli.demo;

import io.lake.meta.Ticker;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * The demo's simulated time: one wall clock and one ticker that move only when a scene moves
 * them, so the demo prints the same on every run. Starts at 2026-01-01T00:00:00Z.
 */
final class DemoTime extends Clock implements Ticker {

    private long millis = 1_767_225_600_000L;
    private long nanos;

    void advance(Duration d) {
        millis += d.toMillis();
        nanos += d.toNanos();
    }

    @Override
    public long read() {
        return nanos;
    }

    @Override
    public long millis() {
        return millis;
    }

    @Override
    public Instant instant() {
        return Instant.ofEpochMilli(millis);
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException("demo time is UTC");
    }
}
