package io.lake.meta.testkit.history;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * An immutable record of concurrent calls on one store, in the order their answers arrived:
 * what {@link HistoryRecorder} collected, or a history written by hand with {@link #builder()}.
 * {@link LinearizabilityChecker} checks it.
 *
 * @since 0.1.0
 */
public final class History {

    private final List<Operation> operations;

    History(List<Operation> operations) {
        this.operations = List.copyOf(operations);
    }

    /** A builder for a history written by hand, for example to test a checker. */
    public static Builder builder() {
        return new Builder();
    }

    /** The recorded operations, in the order they were invoked. */
    public List<Operation> operations() {
        return operations;
    }

    /** How many operations were recorded. */
    public int size() {
        return operations.size();
    }

    /** How many operations have an unknown outcome. */
    public long unknownOutcomes() {
        return operations.stream()
                .filter(op -> op.outcome() instanceof Outcome.Unknown)
                .count();
    }

    /** One operation per line. */
    @Override
    public String toString() {
        return operations.stream().map(Operation::toString).collect(Collectors.joining("\n"));
    }

    /** Adds operations with explicit logical times; each gets the next id. Not thread-safe. */
    public static final class Builder {

        private final List<Operation> operations = new ArrayList<>();

        private Builder() {}

        /**
         * Adds one operation.
         *
         * @throws IllegalArgumentException if the outcome does not answer this kind of call, or
         *     the answer is not after the invocation
         */
        public Builder add(String client, long invokedAt, long answeredAt, Call call, Outcome outcome) {
            requireAnswers(call, outcome);
            operations.add(new Operation(operations.size(), client, call, outcome, invokedAt, answeredAt));
            return this;
        }

        /** The history built so far. */
        public History build() {
            return new History(operations);
        }
    }

    /**
     * An outcome must answer its call: a read a get, a write result a write, a guarded result a
     * guarded write, a transaction result a transaction, a page a first-page read.
     */
    static void requireAnswers(Call call, Outcome outcome) {
        boolean fits = outcome instanceof Outcome.Unknown
                || outcome instanceof Outcome.NotApplied
                || (outcome instanceof Outcome.Read && call instanceof Call.Get)
                || (outcome instanceof Outcome.Written && call instanceof Call.Write)
                || (outcome instanceof Outcome.GuardedWritten && call instanceof Call.Guarded)
                || (outcome instanceof Outcome.Transacted && call instanceof Call.Transact)
                || (outcome instanceof Outcome.Paged && call instanceof Call.FirstPage);
        if (!fits) {
            throw new IllegalArgumentException("outcome '" + outcome + "' does not answer " + call);
        }
    }
}
