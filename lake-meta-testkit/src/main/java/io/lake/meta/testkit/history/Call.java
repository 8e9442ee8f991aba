package io.lake.meta.testkit.history;

import io.lake.meta.Condition;
import io.lake.meta.GuardedMutation;
import io.lake.meta.KeyPrefix;
import io.lake.meta.MetaKey;
import io.lake.meta.Mutation;
import io.lake.meta.Transaction;
import java.util.Objects;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * What a client asked the store: a point read, a conditional write, a guarded write, a
 * transaction, or the first page of a prefix.
 *
 * @since 0.1.0
 */
public sealed interface Call permits Call.Get, Call.Write, Call.Guarded, Call.Transact, Call.FirstPage {

    /** {@code get(key)}. */
    record Get(MetaKey key) implements Call {
        public Get {
            Objects.requireNonNull(key, "key");
        }

        @Override
        public String toString() {
            return "get(" + key + ")";
        }
    }

    /** {@code apply(mutation)}: a create, update or delete. */
    record Write(Mutation mutation) implements Call {
        public Write {
            Objects.requireNonNull(mutation, "mutation");
        }

        @Override
        public String toString() {
            return describe(mutation);
        }
    }

    /** {@code applyGuarded(mutation)}. */
    record Guarded(GuardedMutation mutation) implements Call {
        public Guarded {
            Objects.requireNonNull(mutation, "mutation");
        }

        @Override
        public String toString() {
            return "guarded[" + mutation.guardKey() + " = " + mutation.expectedGuard() + "] "
                    + describe(mutation.target());
        }
    }

    /** {@code transact(transaction)}: conditions and mutations, all or nothing. */
    record Transact(Transaction transaction) implements Call {
        public Transact {
            Objects.requireNonNull(transaction, "transaction");
        }

        @Override
        public String toString() {
            return "transact["
                    + Stream.concat(
                                    transaction.conditions().stream().map(Call::describe),
                                    transaction.mutations().stream().map(Call::describe))
                            .collect(Collectors.joining("; "))
                    + "]";
        }
    }

    /**
     * {@code page(prefix, limit)} without a token: one read of the first entries of a prefix.
     * Recorded only for stores whose page is one snapshot (see {@link HistoryRecorder#recordingWithPages}).
     */
    record FirstPage(KeyPrefix prefix, int limit) implements Call {
        public FirstPage {
            Objects.requireNonNull(prefix, "prefix");
        }

        @Override
        public String toString() {
            return "page(" + prefix + ", " + limit + ")";
        }
    }

    private static String describe(Condition c) {
        if (c instanceof Condition.Holds h) {
            return "holds(" + h.key() + ", " + h.expected() + ")";
        }
        return "absent(" + c.key() + ")";
    }

    private static String describe(Mutation m) {
        if (m instanceof Mutation.Create c) {
            return "create(" + c.key() + ", " + c.value() + ")";
        }
        if (m instanceof Mutation.Update u) {
            return "update(" + u.key() + ", " + u.expected() + " -> " + u.value() + ")";
        }
        Mutation.Delete d = (Mutation.Delete) m;
        return "delete(" + d.key() + ", " + d.expected() + ")";
    }
}
