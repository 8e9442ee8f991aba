package io.lake.meta.testkit.counter;

import io.lake.meta.MetaStore;
import io.lake.meta.Mutation;
import io.lake.meta.WriteResult;
import io.lake.meta.spi.ForwardingMetaStore;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Stands for a hot counter: before every plain write of its caller, {@code rival} runs (another
 * writer takes a value), so the caller's compare-and-set always meets newer bytes. Counts the
 * caller's writes. Does not close the store it wraps.
 */
final class ConflictsEveryWrite extends ForwardingMetaStore {

    private final Runnable rival;
    private final AtomicInteger writes = new AtomicInteger();

    ConflictsEveryWrite(MetaStore delegate, Runnable rival) {
        super(delegate);
        this.rival = rival;
    }

    int writes() {
        return writes.get();
    }

    @Override
    public WriteResult apply(Mutation mutation) {
        rival.run();
        writes.incrementAndGet();
        return super.apply(mutation);
    }

    @Override
    public void close() {
        // the wrapped store belongs to the test
    }
}
