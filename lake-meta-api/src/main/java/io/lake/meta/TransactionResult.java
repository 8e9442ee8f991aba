package io.lake.meta;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The answer to a {@link Transaction}: applied (every mutation changed its key), or not applied,
 * with every condition and mutation that failed, each named by its key. A transaction that was
 * not applied changed nothing.
 *
 * @since 0.1.0
 */
public final class TransactionResult {

    private static final TransactionResult APPLIED = new TransactionResult(List.of());

    private final List<TransactionFailure> failures;

    private TransactionResult(List<TransactionFailure> failures) {
        this.failures = failures;
    }

    /** Every condition and precondition held; every mutation applied. */
    public static TransactionResult applied() {
        return APPLIED;
    }

    /**
     * Nothing applied, because of {@code failures}: every condition and mutation whose
     * precondition did not hold, in the transaction's order (conditions first).
     *
     * @throws InvalidArgumentException if {@code failures} is null, empty, holds null or names a key twice
     */
    public static TransactionResult notApplied(List<TransactionFailure> failures) {
        Checks.notNull(failures, "failures");
        if (failures.isEmpty()) {
            throw new InvalidArgumentException("a transaction that did not apply names at least one failure");
        }
        Set<MetaKey> keys = new HashSet<>();
        List<TransactionFailure> copy = new ArrayList<>(failures.size());
        for (TransactionFailure failure : failures) {
            Checks.notNull(failure, "failure");
            if (!keys.add(failure.key())) {
                throw new InvalidArgumentException("failure of key '" + failure.key() + "' named twice");
            }
            copy.add(failure);
        }
        return new TransactionResult(List.copyOf(copy));
    }

    /** Whether the transaction applied. */
    public boolean isApplied() {
        return failures.isEmpty();
    }

    /** Every failed condition and mutation; empty when applied. */
    public List<TransactionFailure> failures() {
        return failures;
    }

    /** The failure of the condition or mutation on {@code key}, if it failed. */
    public Optional<TransactionFailure> failureOf(MetaKey key) {
        Checks.notNull(key, "key");
        return failures.stream().filter(f -> f.key().equals(key)).findFirst();
    }

    @Override
    public boolean equals(@Nullable Object o) {
        return o instanceof TransactionResult && ((TransactionResult) o).failures.equals(failures);
    }

    @Override
    public int hashCode() {
        return failures.hashCode();
    }

    @Override
    public String toString() {
        return isApplied() ? "applied" : "not applied " + failures;
    }
}
