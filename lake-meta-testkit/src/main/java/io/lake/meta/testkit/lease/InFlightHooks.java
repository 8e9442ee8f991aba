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
import io.lake.meta.spi.RaceHooks;
import java.util.Optional;

/**
 * Stands for the network between a client and the store: calls {@link RaceHooks#reached} at a
 * named point before each write is forwarded, so a test using {@code PausePoints} can hold a
 * request that the client has already built (its guard already chosen) while the world moves on:
 * a GC pause or a slow network. Does not close the store it wraps.
 */
public final class InFlightHooks implements MetaStore {

    /** Reached before a plain mutation is forwarded. */
    public static final String BEFORE_WRITE = "lease-test.before-write";

    /** Reached before a guarded mutation is forwarded. */
    public static final String BEFORE_GUARDED_WRITE = "lease-test.before-guarded-write";

    private final MetaStore delegate;
    private final RaceHooks hooks;

    public InFlightHooks(MetaStore delegate, RaceHooks hooks) {
        this.delegate = delegate;
        this.hooks = hooks;
    }

    @Override
    public Optional<MetaValue> get(MetaKey key) {
        return delegate.get(key);
    }

    @Override
    public WriteResult apply(Mutation mutation) {
        hooks.reached(BEFORE_WRITE);
        return delegate.apply(mutation);
    }

    @Override
    public GuardedResult applyGuarded(GuardedMutation mutation) {
        hooks.reached(BEFORE_GUARDED_WRITE);
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
