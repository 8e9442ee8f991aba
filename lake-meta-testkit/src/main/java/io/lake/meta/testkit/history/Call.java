package io.lake.meta.testkit.history;

import io.lake.meta.GuardedMutation;
import io.lake.meta.MetaKey;
import io.lake.meta.Mutation;
import java.util.Objects;

/** What a client asked the store: a point read, a conditional write or a guarded write. */
public sealed interface Call permits Call.Get, Call.Write, Call.Guarded {

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
