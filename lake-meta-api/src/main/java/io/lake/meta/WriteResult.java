package io.lake.meta;

import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The answer to a conditional write: applied, or a conflict. A conflict carries the key's
 * current value when the backend learned it without an extra read.
 *
 * @since 0.1.0
 */
public final class WriteResult {

    private static final WriteResult APPLIED = new WriteResult(true, true, null);
    private static final WriteResult CONFLICT_ABSENT = new WriteResult(false, true, null);
    private static final WriteResult CONFLICT_UNKNOWN = new WriteResult(false, false, null);

    private final boolean applied;
    private final boolean currentKnown;
    private final @Nullable MetaValue current;

    private WriteResult(boolean applied, boolean currentKnown, @Nullable MetaValue current) {
        this.applied = applied;
        this.currentKnown = currentKnown;
        this.current = current;
    }

    /** The write applied. */
    public static WriteResult applied() {
        return APPLIED;
    }

    /** The precondition failed; {@code current} is the key's value at that moment (empty = absent). */
    public static WriteResult conflict(Optional<MetaValue> current) {
        return Checks.notNull(current, "current value")
                .map(v -> new WriteResult(false, true, v))
                .orElse(CONFLICT_ABSENT);
    }

    /** The precondition failed and the backend does not know the current value. */
    public static WriteResult conflictWithUnknownCurrent() {
        return CONFLICT_UNKNOWN;
    }

    /** Whether the write applied. */
    public boolean isApplied() {
        return applied;
    }

    /** Whether the precondition failed and nothing was written. */
    public boolean isConflict() {
        return !applied;
    }

    /** For a conflict: whether {@link #currentValue()} reports what the key held. */
    public boolean isCurrentKnown() {
        return !applied && currentKnown;
    }

    /** For a conflict with a known current value: that value, or empty when the key was absent. */
    public Optional<MetaValue> currentValue() {
        return Optional.ofNullable(current);
    }

    @Override
    public boolean equals(@Nullable Object o) {
        if (!(o instanceof WriteResult)) {
            return false;
        }
        WriteResult other = (WriteResult) o;
        return applied == other.applied && currentKnown == other.currentKnown && Objects.equals(current, other.current);
    }

    @Override
    public int hashCode() {
        return Objects.hash(applied, currentKnown, current);
    }

    @Override
    public String toString() {
        if (applied) {
            return "applied";
        }
        if (!currentKnown) {
            return "conflict (current value unknown)";
        }
        return current == null ? "conflict (key absent)" : "conflict (current " + current + ")";
    }
}
