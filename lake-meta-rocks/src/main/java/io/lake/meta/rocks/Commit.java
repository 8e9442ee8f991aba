package io.lake.meta.rocks;

import io.lake.meta.GuardedMutation;
import io.lake.meta.GuardedResult;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaValue;
import io.lake.meta.Mutation;
import io.lake.meta.WriteResult;
import java.util.Optional;
import org.rocksdb.RocksDBException;

/** One caller's conditional write: a mutation, optionally guarded by a key's exact bytes. */
final class Commit {

    /** The state a commit is checked against. */
    @FunctionalInterface
    interface View {
        Optional<MetaValue> current(MetaKey key) throws RocksDBException;
    }

    private final MetaKey guardKey;
    private final MetaValue expectedGuard;
    private final Mutation target;

    private Commit(MetaKey guardKey, MetaValue expectedGuard, Mutation target) {
        this.guardKey = guardKey;
        this.expectedGuard = expectedGuard;
        this.target = target;
    }

    static Commit plain(Mutation mutation) {
        return new Commit(null, null, mutation);
    }

    static Commit guarded(GuardedMutation mutation) {
        return new Commit(mutation.guardKey(), mutation.expectedGuard(), mutation.target());
    }

    Mutation target() {
        return target;
    }

    /** Checks the guard (if any), then the target's precondition, against {@code view}. */
    Decision evaluate(View view) throws RocksDBException {
        if (guardKey != null) {
            Optional<MetaValue> guard = view.current(guardKey);
            if (guard.isEmpty() || !guard.get().equals(expectedGuard)) {
                return Decision.GUARD_REJECTED;
            }
        }
        Optional<MetaValue> current = view.current(target.key());
        if (!target.preconditionHolds(current)) {
            return new Decision(false, WriteResult.conflict(current));
        }
        return new Decision(false, WriteResult.applied());
    }

    /** The outcome of checking a commit; {@link #applies()} tells whether its write must be made. */
    static final class Decision {

        static final Decision GUARD_REJECTED = new Decision(true, null);

        private final boolean guardRejected;
        private final WriteResult targetResult;

        private Decision(boolean guardRejected, WriteResult targetResult) {
            this.guardRejected = guardRejected;
            this.targetResult = targetResult;
        }

        boolean applies() {
            return !guardRejected && targetResult.isApplied();
        }

        /** The answer to a plain mutation. */
        WriteResult writeResult() {
            if (guardRejected) {
                throw new IllegalStateException("a plain mutation has no guard to reject");
            }
            return targetResult;
        }

        /** The answer to a guarded mutation. */
        GuardedResult guardedResult() {
            if (guardRejected) {
                return GuardedResult.guardRejected();
            }
            return targetResult.isApplied() ? GuardedResult.applied() : GuardedResult.targetConflict(targetResult);
        }
    }
}
