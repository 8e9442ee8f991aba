package io.lake.meta.testkit.lease;

import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.StoreUnavailableException;
import io.lake.meta.spi.ForwardingMetaStore;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Fails the next {@code failuresLeft} point reads with a retryable {@link StoreUnavailableException},
 * then forwards; writes always go through. The test owns the counter, so it can arm more failures
 * at any moment. Does not close the store it wraps. Thread-safe.
 */
public final class FailingReads extends ForwardingMetaStore {

    private final AtomicInteger failuresLeft;

    /** Fails the next {@code failuresLeft} reads of {@code delegate} as unavailable. */
    public FailingReads(MetaStore delegate, AtomicInteger failuresLeft) {
        super(delegate);
        this.failuresLeft = failuresLeft;
    }

    @Override
    public Optional<MetaValue> get(MetaKey key) {
        if (failuresLeft.getAndDecrement() > 0) {
            throw new StoreUnavailableException("injected: store unavailable");
        }
        return super.get(key);
    }

    @Override
    public void close() {
        // the wrapped store belongs to the test
    }
}
