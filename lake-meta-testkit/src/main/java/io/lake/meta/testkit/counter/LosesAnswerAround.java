package io.lake.meta.testkit.counter;

import io.lake.meta.MetaStore;
import io.lake.meta.Mutation;
import io.lake.meta.OutcomeUnknownException;
import io.lake.meta.WriteResult;
import io.lake.meta.spi.ForwardingMetaStore;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Loses the answer of the next plain write when armed, and lets another writer act while the
 * answer is in limbo: the write is applied (or dropped), then {@code meanwhile} runs, then the
 * caller gets {@link OutcomeUnknownException}. So a test decides exactly what the caller's re-read
 * finds. Does not close the store it wraps. Thread-safe.
 */
final class LosesAnswerAround extends ForwardingMetaStore {

    private record Armed(boolean applies, Runnable meanwhile) {
    }

    private final AtomicReference<Armed> next = new AtomicReference<>();

    LosesAnswerAround(MetaStore delegate) {
        super(delegate);
    }

    /** The next plain write applies, then {@code meanwhile} runs, then its answer is lost. */
    void applyThenLoseAnswer(Runnable meanwhile) {
        next.set(new Armed(true, meanwhile));
    }

    /** The next plain write never arrives, {@code meanwhile} runs, then its answer is lost. */
    void dropAndLoseAnswer(Runnable meanwhile) {
        next.set(new Armed(false, meanwhile));
    }

    @Override
    public WriteResult apply(Mutation mutation) {
        Armed armed = next.getAndSet(null);
        if (armed == null) {
            return super.apply(mutation);
        }
        if (armed.applies()) {
            super.apply(mutation);
        }
        armed.meanwhile().run();
        throw new OutcomeUnknownException("injected: the answer was lost" + (armed.applies() ? " after the write" : ""), null);
    }

    @Override
    public void close() {
        // the wrapped store belongs to the test
    }
}
