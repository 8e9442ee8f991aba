package io.lake.meta.testkit.lease;

import io.lake.meta.GuardedMutation;
import io.lake.meta.GuardedResult;
import io.lake.meta.MetaStore;
import io.lake.meta.Mutation;
import io.lake.meta.WriteResult;
import io.lake.meta.spi.ForwardingMetaStore;

/**
 * Forwards every call to a store that belongs to the test, running {@link #beforeWrite} before
 * each plain or guarded write is forwarded. Does not close the store it wraps.
 */
abstract class BeforeEachWrite extends ForwardingMetaStore {

    BeforeEachWrite(MetaStore delegate) {
        super(delegate);
    }

    /** Runs before a write is forwarded; {@code guarded} tells a guarded write from a plain one. */
    abstract void beforeWrite(boolean guarded);

    @Override
    public final WriteResult apply(Mutation mutation) {
        beforeWrite(false);
        return super.apply(mutation);
    }

    @Override
    public final GuardedResult applyGuarded(GuardedMutation mutation) {
        beforeWrite(true);
        return super.applyGuarded(mutation);
    }

    @Override
    public final void close() {
        // the wrapped store belongs to the test
    }
}
