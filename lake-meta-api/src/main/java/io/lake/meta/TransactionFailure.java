package io.lake.meta;

import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * One condition or mutation of a {@link Transaction} that did not hold, identified by its key
 * (a key appears once per transaction), with what the store found there when it knows.
 *
 * @since 0.1.0
 */
public final class TransactionFailure {

    private final MetaKey key;
    private final boolean currentKnown;
    private final @Nullable MetaValue current;

    private TransactionFailure(MetaKey key, boolean currentKnown, @Nullable MetaValue current) {
        this.key = key;
        this.currentKnown = currentKnown;
        this.current = current;
    }

    /**
     * The precondition on {@code key} failed; the key held {@code current} (empty = absent).
     *
     * @throws InvalidArgumentException if an argument is null
     */
    public static TransactionFailure found(MetaKey key, Optional<MetaValue> current) {
        Checks.notNull(key, "key");
        Checks.notNull(current, "current value");
        return new TransactionFailure(key, true, current.orElse(null));
    }

    /**
     * The precondition on {@code key} failed and the store does not know what the key held.
     *
     * @throws InvalidArgumentException if {@code key} is null
     */
    public static TransactionFailure currentUnknown(MetaKey key) {
        return new TransactionFailure(Checks.notNull(key, "key"), false, null);
    }

    /** The key of the failed condition or mutation. */
    public MetaKey key() {
        return key;
    }

    /** Whether {@link #currentValue()} reports what the key held. */
    public boolean isCurrentKnown() {
        return currentKnown;
    }

    /** When known: the key's value, or empty when it was absent. */
    public Optional<MetaValue> currentValue() {
        return Optional.ofNullable(current);
    }

    /** The same failure as the answer of a single conditional write. */
    public WriteResult asWriteResult() {
        return currentKnown ? WriteResult.conflict(currentValue()) : WriteResult.conflictWithUnknownCurrent();
    }

    @Override
    public boolean equals(@Nullable Object o) {
        if (!(o instanceof TransactionFailure)) {
            return false;
        }
        TransactionFailure other = (TransactionFailure) o;
        return key.equals(other.key) && currentKnown == other.currentKnown && Objects.equals(current, other.current);
    }

    @Override
    public int hashCode() {
        return Objects.hash(key, currentKnown, current);
    }

    @Override
    public String toString() {
        if (!currentKnown) {
            return key + ": failed (current value unknown)";
        }
        return key + (current == null ? ": failed (key absent)" : ": failed (current " + current + ")");
    }
}
