package io.lake.meta;

import java.util.List;

/**
 * A mutation of a target key that applies only while a guard key holds exactly the expected
 * guard bytes, for example the lease record a leader installed. When the guard does not match,
 * nothing moves, whatever the target's state.
 *
 * @param guardKey the key whose value is checked, never changed
 * @param expectedGuard the exact bytes the guard must hold
 * @param target the mutation to apply; its key must differ from {@code guardKey}
 * @since 0.1.0
 */
public record GuardedMutation(MetaKey guardKey, MetaValue expectedGuard, Mutation target) {

    /**
     * @throws InvalidArgumentException if an argument is null or the guard key equals the
     *     target key (a guard cannot protect itself: use a plain {@link Mutation.Update})
     */
    public GuardedMutation {
        Checks.notNull(guardKey, "guard key");
        Checks.notNull(expectedGuard, "expected guard value");
        Checks.notNull(target, "target mutation");
        if (guardKey.equals(target.key())) {
            throw new InvalidArgumentException("guard key '" + guardKey + "' equals the target key:"
                    + " a guarded mutation must change a different key than the one it checks;"
                    + " use a plain update to change the guard itself");
        }
    }

    /** The same change as a transaction: the guard as its one condition, the target as its one mutation. */
    public Transaction asTransaction() {
        return Transaction.of(List.of(Condition.holds(guardKey, expectedGuard)), List.of(target));
    }

    /**
     * The answer to this guarded mutation, given the answer to {@link #asTransaction()}: a failed
     * guard is a rejection whatever the target's state (nothing moved); otherwise a failed target
     * is a target conflict.
     *
     * @throws InvalidArgumentException if {@code result} is null or names a key of another transaction
     */
    public GuardedResult resultOf(TransactionResult result) {
        Checks.notNull(result, "transaction result");
        if (result.isApplied()) {
            return GuardedResult.applied();
        }
        for (TransactionFailure failure : result.failures()) {
            if (!failure.key().equals(guardKey) && !failure.key().equals(target.key())) {
                throw new InvalidArgumentException("transaction result names key '" + failure.key()
                        + "', which is neither the guard nor the target of " + this);
            }
        }
        if (result.failureOf(guardKey).isPresent()) {
            return GuardedResult.guardRejected();
        }
        return GuardedResult.targetConflict(
                result.failureOf(target.key()).orElseThrow().asWriteResult());
    }
}
