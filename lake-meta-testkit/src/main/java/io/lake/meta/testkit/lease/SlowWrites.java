package io.lake.meta.testkit.lease;

import io.lake.meta.GuardedMutation;
import io.lake.meta.GuardedResult;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.Mutation;
import io.lake.meta.Page;
import io.lake.meta.PageRequest;
import io.lake.meta.WriteResult;
import java.time.Duration;
import java.util.Optional;

/**
 * Makes every write take {@code latency} on a manual ticker (advanced while the write is in
 * flight), so a test can tell time measured before a request from time measured after it.
 */
public final class SlowWrites implements MetaStore {

    private final MetaStore delegate;
    private final ManualTicker ticker;
    private final Duration latency;

    public SlowWrites(MetaStore delegate, ManualTicker ticker, Duration latency) {
        this.delegate = delegate;
        this.ticker = ticker;
        this.latency = latency;
    }

    @Override
    public Optional<MetaValue> get(MetaKey key) {
        return delegate.get(key);
    }

    @Override
    public WriteResult apply(Mutation mutation) {
        ticker.advance(latency);
        return delegate.apply(mutation);
    }

    @Override
    public GuardedResult applyGuarded(GuardedMutation mutation) {
        ticker.advance(latency);
        return delegate.applyGuarded(mutation);
    }

    @Override
    public Page page(PageRequest request) {
        return delegate.page(request);
    }

    @Override
    public void close() {
        // the wrapped store belongs to the test
    }
}
