package io.lake.meta.testkit.outside;

import io.lake.meta.GuardedMutation;
import io.lake.meta.GuardedResult;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.Mutation;
import io.lake.meta.Transaction;
import io.lake.meta.TransactionFailure;
import io.lake.meta.TransactionResult;
import io.lake.meta.WriteResult;
import io.lake.meta.spi.ForwardingMetaStore;
import io.lake.meta.spi.RaceHooks;
import io.lake.meta.testkit.InMemoryMetaStore;
import java.util.Optional;
import java.util.function.UnaryOperator;

/** Model stores that answer conflicts without their current value, or with a wrong one. */
public final class UnknownCurrentStores {

    private UnknownCurrentStores() {}

    /** Every conflict, on every write path, loses its current value (which the API allows). */
    public static MetaStore forgetting(RaceHooks hooks) {
        return new Rewriting(InMemoryMetaStore.withHooks(hooks), r -> WriteResult.conflictWithUnknownCurrent());
    }

    /** Every single-key conflict reports a value the key never held: a bug the suite must catch. */
    public static MetaStore lying(RaceHooks hooks) {
        return new Rewriting(
                InMemoryMetaStore.withHooks(hooks), r -> WriteResult.conflict(Optional.of(MetaValue.utf8("never"))));
    }

    private static final class Rewriting extends ForwardingMetaStore {
        private final UnaryOperator<WriteResult> conflict;

        Rewriting(MetaStore delegate, UnaryOperator<WriteResult> conflict) {
            super(delegate);
            this.conflict = conflict;
        }

        @Override
        public WriteResult apply(Mutation mutation) {
            WriteResult result = super.apply(mutation);
            return result.isConflict() ? conflict.apply(result) : result;
        }

        @Override
        public GuardedResult applyGuarded(GuardedMutation mutation) {
            GuardedResult result = super.applyGuarded(mutation);
            return result.outcome() == GuardedResult.Outcome.TARGET_CONFLICT
                    ? GuardedResult.targetConflict(
                            conflict.apply(result.targetResult().orElseThrow()))
                    : result;
        }

        @Override
        public TransactionResult transact(Transaction transaction) {
            TransactionResult result = super.transact(transaction);
            return result.isApplied()
                    ? result
                    : TransactionResult.notApplied(result.failures().stream()
                            .map(f -> TransactionFailure.currentUnknown(f.key()))
                            .toList());
        }
    }
}
