package io.lake.meta;

import java.util.Optional;

/**
 * A precondition of a {@link Transaction} on a key the transaction does not change: the key
 * holds exactly some bytes, or the key is absent. Build one with {@link #holds} or
 * {@link #absent}; arguments are checked at once, before any I/O.
 *
 * @since 0.1.0
 */
public sealed interface Condition permits Condition.Holds, Condition.Absent {

    /** The key this condition reads. */
    MetaKey key();

    /**
     * Whether the condition holds for the key's current value.
     *
     * @param current the current value, empty when the key is absent
     */
    boolean isMet(Optional<MetaValue> current);

    /** The key must hold exactly {@code expected}. */
    static Holds holds(MetaKey key, MetaValue expected) {
        return new Holds(key, expected);
    }

    /** The key must be absent. */
    static Absent absent(MetaKey key) {
        return new Absent(key);
    }

    /** The key holds exactly {@code expected}. */
    record Holds(MetaKey key, MetaValue expected) implements Condition {
        public Holds {
            Checks.notNull(key, "condition key");
            Checks.notNull(expected, "expected value");
        }

        @Override
        public boolean isMet(Optional<MetaValue> current) {
            Checks.notNull(current, "current value");
            return current.isPresent() && current.get().equals(expected);
        }
    }

    /** The key is absent. */
    record Absent(MetaKey key) implements Condition {
        public Absent {
            Checks.notNull(key, "condition key");
        }

        @Override
        public boolean isMet(Optional<MetaValue> current) {
            Checks.notNull(current, "current value");
            return current.isEmpty();
        }
    }
}
