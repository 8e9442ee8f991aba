package io.lake.meta.testkit.counter;

import io.lake.meta.MetaStore;
import io.lake.meta.Mutation;
import io.lake.meta.WriteResult;
import io.lake.meta.spi.ForwardingMetaStore;

/**
 * Answers the next plain write as a client that retried it after a lost answer would: the write
 * applied, and the retry met it as a conflict carrying the caller's own new bytes. Later writes
 * are forwarded. Does not close the store it wraps.
 */
final class MeetsItsOwnWrite extends ForwardingMetaStore {

    private boolean done;

    MeetsItsOwnWrite(MetaStore delegate) {
        super(delegate);
    }

    @Override
    public synchronized WriteResult apply(Mutation mutation) {
        WriteResult first = super.apply(mutation);
        if (done || !first.isApplied()) {
            return first;
        }
        done = true;
        return super.apply(mutation); // the retry: a conflict with what the first attempt wrote
    }

    @Override
    public void close() {
        // the wrapped store belongs to the test
    }
}
