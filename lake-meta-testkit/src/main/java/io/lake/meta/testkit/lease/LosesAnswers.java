package io.lake.meta.testkit.lease;

import io.lake.meta.MetaStore;
import io.lake.meta.GuardedMutation;
import io.lake.meta.GuardedResult;
import io.lake.meta.Mutation;
import io.lake.meta.Transaction;
import io.lake.meta.TransactionResult;
import io.lake.meta.OutcomeUnknownException;
import io.lake.meta.WriteResult;
import io.lake.meta.spi.ForwardingMetaStore;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * Loses the answer of the next write when armed (a plain, guarded or transactional write, so the
 * writes of a fenced store too): the write is applied (or, if armed so, not even sent) and the
 * caller gets {@link OutcomeUnknownException}, as after a network cut. Does not close the store
 * it wraps.
 */
public final class LosesAnswers extends ForwardingMetaStore {

    /** What the next plain write does. */
    public enum Next {
        FORWARD, APPLY_THEN_LOSE_ANSWER, DROP_AND_LOSE_ANSWER
    }

    private final AtomicReference<Next> next = new AtomicReference<>(Next.FORWARD);

    /** Loses the answers of {@code delegate}'s writes when armed. */
    public LosesAnswers(MetaStore delegate) {
        super(delegate);
    }

    /** Arms the behaviour of the next write; later writes are forwarded. */
    public void next(Next behaviour) {
        next.set(behaviour);
    }

    @Override
    public WriteResult apply(Mutation mutation) {
        return send(() -> super.apply(mutation));
    }

    @Override
    public GuardedResult applyGuarded(GuardedMutation mutation) {
        return send(() -> super.applyGuarded(mutation));
    }

    @Override
    public TransactionResult transact(Transaction transaction) {
        return send(() -> super.transact(transaction));
    }

    private <R> R send(Supplier<R> write) {
        switch (next.getAndSet(Next.FORWARD)) {
            case APPLY_THEN_LOSE_ANSWER:
                var unused = write.get(); // applied; its answer is the one lost
                throw new OutcomeUnknownException("injected: the answer was lost after the write", null);
            case DROP_AND_LOSE_ANSWER:
                throw new OutcomeUnknownException("injected: the answer was lost, the write never arrived", null);
            default:
                return write.get();
        }
    }

    @Override
    public void close() {
        // the wrapped store belongs to the test
    }
}
