package io.lake.meta.rocks;

import io.lake.meta.Condition;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaValue;
import io.lake.meta.Mutation;
import io.lake.meta.Transaction;
import io.lake.meta.TransactionFailure;
import io.lake.meta.TransactionResult;
import io.lake.meta.WriteResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.rocksdb.RocksDBException;

/**
 * One caller's conditional write: a plain mutation, or a transaction (a guarded mutation is the
 * transaction of its guard and its target). Either way the committer checks every precondition
 * and stages every write in the same batch, so a commit applies all or nothing.
 */
final class Commit {

    /** The state a commit is checked against. */
    @FunctionalInterface
    interface View {
        Optional<MetaValue> current(MetaKey key) throws RocksDBException;

        /** What each key holds, in order; a view that can read many keys at once overrides it. */
        default List<Optional<MetaValue>> currentAll(List<MetaKey> keys) throws RocksDBException {
            List<Optional<MetaValue>> values = new ArrayList<>(keys.size());
            for (MetaKey key : keys) {
                values.add(current(key));
            }
            return values;
        }
    }

    private final List<Condition> conditions;
    private final List<Mutation> mutations;

    private Commit(List<Condition> conditions, List<Mutation> mutations) {
        this.conditions = conditions;
        this.mutations = mutations;
    }

    static Commit plain(Mutation mutation) {
        return new Commit(List.of(), List.of(mutation));
    }

    static Commit of(Transaction transaction) {
        return new Commit(transaction.conditions(), transaction.mutations());
    }

    /** The writes this commit makes when it applies. */
    List<Mutation> mutations() {
        return mutations;
    }

    /** How many keys the commit checks, without listing them. */
    int keyCount() {
        return conditions.size() + mutations.size();
    }

    /** Every key the commit checks: its conditions', then its mutations'. */
    List<MetaKey> keys() {
        List<MetaKey> keys = new ArrayList<>(conditions.size() + mutations.size());
        conditions.forEach(c -> keys.add(c.key()));
        mutations.forEach(m -> keys.add(m.key()));
        return keys;
    }

    /** The key callers recognise the commit by in messages: its first write's. */
    MetaKey firstKey() {
        return mutations.get(0).key();
    }

    /** Bytes of keys and new values, for sizing batches. */
    long bytes() {
        long bytes = 0;
        for (Mutation mutation : mutations) {
            bytes += mutation.key().utf8Length()
                    + mutation.newValue().map(MetaValue::size).orElse(0);
        }
        return bytes;
    }

    /** Checks every condition, then every mutation's precondition, against {@code view}; reports all that fail. */
    Decision evaluate(View view) throws RocksDBException {
        List<TransactionFailure> failures = new ArrayList<>();
        for (Condition condition : conditions) {
            Optional<MetaValue> current = view.current(condition.key());
            if (!condition.isMet(current)) {
                failures.add(TransactionFailure.found(condition.key(), current));
            }
        }
        for (Mutation mutation : mutations) {
            Optional<MetaValue> current = view.current(mutation.key());
            if (!mutation.preconditionHolds(current)) {
                failures.add(TransactionFailure.found(mutation.key(), current));
            }
        }
        return new Decision(failures);
    }

    /** The outcome of checking a commit; {@link #applies()} tells whether its writes must be made. */
    static final class Decision {

        private final List<TransactionFailure> failures;

        private Decision(List<TransactionFailure> failures) {
            this.failures = failures;
        }

        boolean applies() {
            return failures.isEmpty();
        }

        /** The answer to a plain mutation. */
        WriteResult writeResult() {
            return applies() ? WriteResult.applied() : failures.get(0).asWriteResult();
        }

        /** The answer to a transaction. */
        TransactionResult transactionResult() {
            return applies() ? TransactionResult.applied() : TransactionResult.notApplied(failures);
        }
    }
}
