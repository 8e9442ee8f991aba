package io.lake.meta;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * An all-or-nothing change of several keys: every {@link Condition} must hold and every
 * {@link Mutation}'s own precondition must hold, then all mutations apply atomically; otherwise
 * nothing changes and the {@link TransactionResult} names every condition and mutation that
 * failed. A guarded mutation is the transaction of one condition (the guard) and one mutation.
 *
 * <p>Rules, checked when the transaction is built, before any I/O (each break is an
 * {@link InvalidArgumentException}):
 * <ul>
 *   <li>at least one mutation;</li>
 *   <li>a key appears at most once across conditions and mutations (a condition on a key the
 *       transaction also changes is the mutation's own expectation: use an update);</li>
 *   <li>at most {@value Limits#MAX_TRANSACTION_KEYS} keys and at most
 *       {@value Limits#MAX_TRANSACTION_BYTES} bytes of keys and values (expected and new);
 *       a store may hold fewer keys, see {@link MetaStore#maxTransactionKeys()}.</li>
 * </ul>
 *
 * @since 0.1.0
 */
public final class Transaction {

    private final List<Condition> conditions;
    private final List<Mutation> mutations;
    private final long sizeBytes;

    private Transaction(List<Condition> conditions, List<Mutation> mutations) {
        this.conditions = conditions;
        this.mutations = mutations;
        this.sizeBytes = validate(conditions, mutations);
    }

    /**
     * A transaction of {@code conditions} and {@code mutations}, in the order given.
     *
     * @throws InvalidArgumentException if a list or an element is null, there is no mutation, a key
     *     appears twice, or the transaction is larger than the contract allows
     */
    public static Transaction of(List<Condition> conditions, List<Mutation> mutations) {
        return new Transaction(copy(conditions, "conditions"), copy(mutations, "mutations"));
    }

    /** A builder adding conditions and mutations one by one. */
    public static Builder builder() {
        return new Builder();
    }

    /** The conditions, in the order given. */
    public List<Condition> conditions() {
        return conditions;
    }

    /** The mutations, in the order given. */
    public List<Mutation> mutations() {
        return mutations;
    }

    /** How many keys the transaction names: its conditions plus its mutations. */
    public int keyCount() {
        return conditions.size() + mutations.size();
    }

    /** The bytes of every key and value it carries, as counted against {@link Limits#MAX_TRANSACTION_BYTES}. */
    public long sizeBytes() {
        return sizeBytes;
    }

    /**
     * Refuses this transaction if it carries more bytes than {@code limit}, a store's own limit
     * (see {@link MetaStore#maxTransactionBytes()}).
     *
     * @param store how the store describes itself, for the message
     * @throws InvalidArgumentException naming the store and its limit (or if {@code store} is null)
     */
    public void requireAtMostBytes(int limit, String store) {
        Checks.notNull(store, "store description");
        if (sizeBytes > limit) {
            throw new InvalidArgumentException(
                    "a transaction carries " + sizeBytes + " bytes of keys and values; " + store + " accepts at most "
                            + limit + " bytes per transaction: split it into several transactions");
        }
    }

    /**
     * Refuses this transaction if it names more keys than {@code limit}, a store's own limit.
     *
     * @param store how the store describes itself, for the message
     * @throws InvalidArgumentException naming the store and its limit (or if {@code store} is null)
     */
    public void requireAtMostKeys(int limit, String store) {
        Checks.notNull(store, "store description");
        if (keyCount() > limit) {
            throw new InvalidArgumentException("a transaction names " + keyCount() + " keys; " + store
                    + " accepts at most " + limit + " keys per transaction: split it into several transactions");
        }
    }

    private static <T> List<T> copy(List<T> list, String name) {
        Checks.notNull(list, name);
        List<T> copy = new ArrayList<>(list.size());
        for (int i = 0; i < list.size(); i++) {
            copy.add(Checks.notNull(list.get(i), name + "[" + i + "]"));
        }
        return List.copyOf(copy);
    }

    private static long validate(List<Condition> conditions, List<Mutation> mutations) {
        if (mutations.isEmpty()) {
            throw new InvalidArgumentException("a transaction needs at least one mutation; to read several keys"
                    + " consistently, read them with get");
        }
        int keys = conditions.size() + mutations.size();
        if (keys > Limits.MAX_TRANSACTION_KEYS) {
            throw new InvalidArgumentException("a transaction names " + keys + " keys; the limit is "
                    + Limits.MAX_TRANSACTION_KEYS + " (DynamoDB's limit of items per transaction):"
                    + " split it into several transactions");
        }
        Set<MetaKey> seen = new HashSet<>();
        long bytes = 0;
        for (Condition condition : conditions) {
            requireFirst(seen, condition.key());
            bytes += condition.key().utf8Length();
            if (condition instanceof Condition.Holds) {
                bytes += ((Condition.Holds) condition).expected().size();
            }
        }
        for (Mutation mutation : mutations) {
            requireFirst(seen, mutation.key());
            bytes += mutation.key().utf8Length()
                    + mutation.newValue().map(MetaValue::size).orElse(0);
            if (mutation instanceof Mutation.Update) {
                bytes += ((Mutation.Update) mutation).expected().size();
            } else if (mutation instanceof Mutation.Delete) {
                bytes += ((Mutation.Delete) mutation).expected().size();
            }
        }
        if (bytes > Limits.MAX_TRANSACTION_BYTES) {
            throw new InvalidArgumentException("a transaction carries " + bytes + " bytes of keys and values; the"
                    + " limit is " + Limits.MAX_TRANSACTION_BYTES + " bytes (2 MiB, which fits DynamoDB's 4 MB"
                    + " request limit once encoded): split it into several transactions");
        }
        return bytes;
    }

    private static void requireFirst(Set<MetaKey> seen, MetaKey key) {
        if (!seen.add(key)) {
            throw new InvalidArgumentException("key '" + key + "' appears more than once in a transaction: name each"
                    + " key once (a mutation carries its own expectation, so a key it changes needs no condition)");
        }
    }

    @Override
    public boolean equals(@Nullable Object o) {
        return o instanceof Transaction
                && ((Transaction) o).conditions.equals(conditions)
                && ((Transaction) o).mutations.equals(mutations);
    }

    @Override
    public int hashCode() {
        return 31 * conditions.hashCode() + mutations.hashCode();
    }

    @Override
    public String toString() {
        return "Transaction[conditions=" + conditions + ", mutations=" + mutations + "]";
    }

    /** Adds conditions and mutations one by one; {@link #build()} checks the rules. Not thread-safe. */
    public static final class Builder {

        private final List<Condition> conditions = new ArrayList<>();
        private final List<Mutation> mutations = new ArrayList<>();

        private Builder() {}

        /** Adds a condition. */
        public Builder require(Condition condition) {
            conditions.add(Checks.notNull(condition, "condition"));
            return this;
        }

        /** Requires {@code key} to hold exactly {@code expected}. */
        public Builder requireHolds(MetaKey key, MetaValue expected) {
            return require(Condition.holds(key, expected));
        }

        /** Requires {@code key} to be absent. */
        public Builder requireAbsent(MetaKey key) {
            return require(Condition.absent(key));
        }

        /** Adds a mutation. */
        public Builder apply(Mutation mutation) {
            mutations.add(Checks.notNull(mutation, "mutation"));
            return this;
        }

        /** Adds {@code Mutation.create(key, value)}. */
        public Builder create(MetaKey key, MetaValue value) {
            return apply(Mutation.create(key, value));
        }

        /** Adds {@code Mutation.update(key, expected, value)}. */
        public Builder update(MetaKey key, MetaValue expected, MetaValue value) {
            return apply(Mutation.update(key, expected, value));
        }

        /** Adds {@code Mutation.delete(key, expected)}. */
        public Builder delete(MetaKey key, MetaValue expected) {
            return apply(Mutation.delete(key, expected));
        }

        /**
         * The transaction.
         *
         * @throws InvalidArgumentException if it breaks a rule of {@link Transaction}
         */
        public Transaction build() {
            return Transaction.of(conditions, mutations);
        }
    }
}
