package io.lake.meta;

import java.util.Optional;

/**
 * A conditional change of one key: create (the key must be absent), update or delete (the key
 * must hold exactly the expected bytes). Build one with {@link #create}, {@link #update} or
 * {@link #delete}; arguments are checked at once, before any I/O.
 *
 * @since 0.1.0
 */
public sealed interface Mutation permits Mutation.Create, Mutation.Update, Mutation.Delete {

    /** The key this mutation changes. */
    MetaKey key();

    /**
     * Whether the precondition holds for the key's current value.
     *
     * @param current the current value, empty when the key is absent
     * @throws InvalidArgumentException if {@code current} is null
     */
    boolean preconditionHolds(Optional<MetaValue> current);

    /** The value the key holds once applied; empty for a delete. */
    Optional<MetaValue> newValue();

    /** Creates {@code key} with {@code value}; applies only if the key is absent. */
    static Create create(MetaKey key, MetaValue value) {
        return new Create(key, value);
    }

    /** Replaces {@code expected} with {@code value}; applies only if the key holds exactly {@code expected}. */
    static Update update(MetaKey key, MetaValue expected, MetaValue value) {
        return new Update(key, expected, value);
    }

    /** Deletes {@code key}; applies only if it holds exactly {@code expected}. */
    static Delete delete(MetaKey key, MetaValue expected) {
        return new Delete(key, expected);
    }

    /** Create-if-absent. */
    record Create(MetaKey key, MetaValue value) implements Mutation {
        public Create {
            Checks.notNull(key, "key");
            Checks.notNull(value, "value");
        }

        @Override
        public boolean preconditionHolds(Optional<MetaValue> current) {
            return Checks.notNull(current, "current value").isEmpty();
        }

        @Override
        public Optional<MetaValue> newValue() {
            return Optional.of(value);
        }
    }

    /** Exact-bytes compare-and-set. */
    record Update(MetaKey key, MetaValue expected, MetaValue value) implements Mutation {
        public Update {
            Checks.notNull(key, "key");
            Checks.notNull(expected, "expected value");
            Checks.notNull(value, "value");
        }

        @Override
        public boolean preconditionHolds(Optional<MetaValue> current) {
            return Checks.notNull(current, "current value").isPresent()
                    && current.get().equals(expected);
        }

        @Override
        public Optional<MetaValue> newValue() {
            return Optional.of(value);
        }
    }

    /** Exact-bytes compare-and-delete. */
    record Delete(MetaKey key, MetaValue expected) implements Mutation {
        public Delete {
            Checks.notNull(key, "key");
            Checks.notNull(expected, "expected value");
        }

        @Override
        public boolean preconditionHolds(Optional<MetaValue> current) {
            return Checks.notNull(current, "current value").isPresent()
                    && current.get().equals(expected);
        }

        @Override
        public Optional<MetaValue> newValue() {
            return Optional.empty();
        }
    }
}
