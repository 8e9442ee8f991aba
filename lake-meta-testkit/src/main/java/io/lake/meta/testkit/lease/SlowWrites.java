package io.lake.meta.testkit.lease;

import io.lake.meta.GuardedMutation;
import io.lake.meta.GuardedResult;
import io.lake.meta.MetaStore;
import io.lake.meta.Mutation;
import io.lake.meta.WriteResult;
import io.lake.meta.spi.ForwardingMetaStore;
import java.time.Duration;

/**
 * Makes every write take {@code latency} on a manual ticker (advanced while the write is in
 * flight), so a test can tell time measured before a request from time measured after it.
 */
public final class SlowWrites extends ForwardingMetaStore {

    private final ManualTicker ticker;
    private final Duration latency;

    public SlowWrites(MetaStore delegate, ManualTicker ticker, Duration latency) {
        super(delegate);
        this.ticker = ticker;
        this.latency = latency;
    }

    @Override
    public WriteResult apply(Mutation mutation) {
        ticker.advance(latency);
        return super.apply(mutation);
    }

    @Override
    public GuardedResult applyGuarded(GuardedMutation mutation) {
        ticker.advance(latency);
        return super.applyGuarded(mutation);
    }

    @Override
    public void close() {
        // the wrapped store belongs to the test
    }
}
