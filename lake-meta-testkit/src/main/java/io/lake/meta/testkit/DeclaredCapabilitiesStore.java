package io.lake.meta.testkit;

import io.lake.meta.GuardedMutation;
import io.lake.meta.GuardedResult;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.Mutation;
import io.lake.meta.Transaction;
import io.lake.meta.TransactionFailure;
import io.lake.meta.TransactionResult;
import io.lake.meta.WriteResult;
import io.lake.meta.spi.ForwardingMetaStore;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The store under test as the suite sees it, holding the backend to the capabilities it declared
 * about conflicts ({@link Capability#CONFLICT_REPORTS_CURRENT_VALUE}): a conflict without
 * its current value either fails at once with a message saying what to declare, or, when the
 * backend declared that it may answer so, is completed by reading the key, as a careful caller
 * does. Current values the backend reports are never touched.
 */
final class DeclaredCapabilitiesStore extends ForwardingMetaStore {

    static final String UNKNOWN_CURRENT_HINT = "the store answered a conflict without the key's current value"
            + " (WriteResult.conflictWithUnknownCurrent() or TransactionFailure.currentUnknown(key)); the contract"
            + " expects it by default. If the backend cannot report it, declare so in its BackendFactory: return"
            + " Capabilities.all().without(Capability.CONFLICT_REPORTS_CURRENT_VALUE, \"<why>\") from capabilities()";

    private final boolean reportsCurrent;

    DeclaredCapabilitiesStore(MetaStore backend, boolean reportsCurrent) {
        super(backend);
        this.reportsCurrent = reportsCurrent;
    }

    /** The backend's own store: what the test opened. */
    MetaStore backend() {
        return delegate();
    }

    @Override
    public WriteResult apply(Mutation mutation) {
        return completed(super.apply(mutation), mutation);
    }

    @Override
    public GuardedResult applyGuarded(GuardedMutation mutation) {
        GuardedResult result = super.applyGuarded(mutation);
        Optional<WriteResult> target = result.targetResult();
        if (result.outcome() == GuardedResult.Outcome.TARGET_CONFLICT && target.isPresent()) {
            WriteResult completed = completed(target.get(), mutation.target());
            return completed.equals(target.get()) ? result : GuardedResult.targetConflict(completed);
        }
        return result;
    }

    @Override
    public TransactionResult transact(Transaction transaction) {
        TransactionResult result = super.transact(transaction);
        if (result.isApplied() || result.failures().stream().allMatch(TransactionFailure::isCurrentKnown)) {
            return result;
        }
        unknownCurrent();
        Map<MetaKey, MetaValue> now = delegate()
                .getAll(result.failures().stream().map(TransactionFailure::key).toList());
        List<TransactionFailure> completed = result.failures().stream()
                .map(f -> f.isCurrentKnown()
                        ? f
                        : TransactionFailure.found(f.key(), Optional.ofNullable(now.get(f.key()))))
                .toList();
        return TransactionResult.notApplied(completed);
    }

    private WriteResult completed(WriteResult result, Mutation mutation) {
        if (!result.isConflict() || result.isCurrentKnown()) {
            return result;
        }
        unknownCurrent();
        return WriteResult.conflict(delegate().get(mutation.key()));
    }

    private void unknownCurrent() {
        if (reportsCurrent) {
            throw new AssertionError(UNKNOWN_CURRENT_HINT);
        }
    }

    @Override
    public String toString() {
        return delegate().toString();
    }
}
