package io.lake.meta.testkit.lease;

import io.lake.meta.GuardedMutation;
import io.lake.meta.GuardedResult;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.Mutation;
import io.lake.meta.OutcomeUnknownException;
import io.lake.meta.Page;
import io.lake.meta.PageRequest;
import io.lake.meta.WriteResult;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Loses the answer of the next plain write when armed: the write is applied (or, if armed so,
 * not even sent) and the caller gets {@link OutcomeUnknownException}, as after a network cut.
 * Does not close the store it wraps.
 */
public final class LosesAnswers implements MetaStore {

    /** What the next plain write does. */
    public enum Next {
        FORWARD, APPLY_THEN_LOSE_ANSWER, DROP_AND_LOSE_ANSWER
    }

    private final MetaStore delegate;
    private final AtomicReference<Next> next = new AtomicReference<>(Next.FORWARD);

    public LosesAnswers(MetaStore delegate) {
        this.delegate = delegate;
    }

    /** Arms the behaviour of the next plain write; later writes are forwarded. */
    public void next(Next behaviour) {
        next.set(behaviour);
    }

    @Override
    public Optional<MetaValue> get(MetaKey key) {
        return delegate.get(key);
    }

    @Override
    public WriteResult apply(Mutation mutation) {
        switch (next.getAndSet(Next.FORWARD)) {
            case APPLY_THEN_LOSE_ANSWER:
                delegate.apply(mutation);
                throw new OutcomeUnknownException("injected: the answer was lost after the write", null);
            case DROP_AND_LOSE_ANSWER:
                throw new OutcomeUnknownException("injected: the answer was lost, the write never arrived", null);
            default:
                return delegate.apply(mutation);
        }
    }

    @Override
    public GuardedResult applyGuarded(GuardedMutation mutation) {
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
