package io.lake.meta.testkit.lease;

import io.lake.meta.MetaStore;
import java.time.Duration;

/**
 * Makes every write take {@code latency} on a manual ticker (advanced while the write is in
 * flight), so a test can tell time measured before a request from time measured after it.
 * Does not close the store it wraps.
 *
 * @since 0.1.0
 */
public final class SlowWrites extends BeforeEachWrite {

    private final ManualTicker ticker;
    private final Duration latency;

    /** Advances {@code ticker} by {@code latency} inside each write to {@code delegate}. */
    public SlowWrites(MetaStore delegate, ManualTicker ticker, Duration latency) {
        super(delegate);
        this.ticker = ticker;
        this.latency = latency;
    }

    @Override
    void beforeWrite(boolean guarded) {
        ticker.advance(latency);
    }
}
