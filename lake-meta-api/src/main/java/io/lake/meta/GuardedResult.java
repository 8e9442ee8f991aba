package io.lake.meta;

import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The answer to a {@link GuardedMutation}: applied, guard rejected, or target conflict.
 *
 * @since 0.1.0
 */
public final class GuardedResult {

    /** What happened. */
    public enum Outcome {
        /** The guard matched and the target's precondition held; the target changed. */
        APPLIED,
        /** The guard key did not hold the expected bytes; nothing changed. */
        GUARD_REJECTED,
        /** The guard matched but the target's precondition failed; nothing changed. */
        TARGET_CONFLICT
    }

    private static final GuardedResult APPLIED = new GuardedResult(Outcome.APPLIED, WriteResult.applied());
    private static final GuardedResult GUARD_REJECTED = new GuardedResult(Outcome.GUARD_REJECTED, null);

    private final Outcome outcome;
    private final @Nullable WriteResult target; // null: the guard was rejected

    private GuardedResult(Outcome outcome, @Nullable WriteResult target) {
        this.outcome = outcome;
        this.target = target;
    }

    /** The guard held and the target mutation applied. */
    public static GuardedResult applied() {
        return APPLIED;
    }

    /** The guard key no longer held the expected bytes: nothing moved. */
    public static GuardedResult guardRejected() {
        return GUARD_REJECTED;
    }

    /**
     * The guard matched; {@code targetConflict} describes the target's failed precondition.
     *
     * @throws InvalidArgumentException if {@code targetConflict} is null or an applied write
     */
    public static GuardedResult targetConflict(WriteResult targetConflict) {
        if (Checks.notNull(targetConflict, "target conflict").isApplied()) {
            throw new InvalidArgumentException("a target conflict needs a conflicting WriteResult, not an applied one:"
                    + " use GuardedResult.applied() when the target changed");
        }
        return new GuardedResult(Outcome.TARGET_CONFLICT, targetConflict);
    }

    /** Applied, guard rejected or target conflict. */
    public Outcome outcome() {
        return outcome;
    }

    /** Whether the target mutation applied. */
    public boolean isApplied() {
        return outcome == Outcome.APPLIED;
    }

    /**
     * The target's write result: applied, or the conflict (with the current value when known).
     * Empty when the guard was rejected, because the target was then not evaluated.
     */
    public Optional<WriteResult> targetResult() {
        return Optional.ofNullable(target);
    }

    @Override
    public boolean equals(@Nullable Object o) {
        return o instanceof GuardedResult
                && ((GuardedResult) o).outcome == outcome
                && Objects.equals(((GuardedResult) o).target, target);
    }

    @Override
    public int hashCode() {
        return Objects.hash(outcome, target);
    }

    @Override
    public String toString() {
        return outcome == Outcome.TARGET_CONFLICT
                ? "target " + target
                : outcome.name().toLowerCase(Locale.ROOT).replace('_', ' ');
    }
}
