package io.lake.meta.testkit.history;

import java.util.Locale;

/**
 * The verdict of {@link LinearizabilityChecker} on one history, with what it looked at.
 *
 * @since 0.1.0
 */
public final class CheckResult {

    /** What the check found. */
    public enum Verdict {
        /** Some order of the operations explains every answer. */
        LINEARIZABLE,
        /** No order does: the store gave an answer it could not have given. */
        NOT_LINEARIZABLE,
        /** The search gave up before deciding (too many states); not a pass. */
        UNDECIDED
    }

    private final Verdict verdict;
    private final int operationsChecked;
    private final long unknownOutcomes;
    private final int leftOut;
    private final int statesExplored;
    private final String explanation;

    private CheckResult(
            Verdict verdict,
            int operationsChecked,
            long unknownOutcomes,
            int leftOut,
            int statesExplored,
            String explanation) {
        this.verdict = verdict;
        this.operationsChecked = operationsChecked;
        this.unknownOutcomes = unknownOutcomes;
        this.leftOut = leftOut;
        this.statesExplored = statesExplored;
        this.explanation = explanation;
    }

    static CheckResult linearizable(int checked, long unknown, int leftOut, int states) {
        return new CheckResult(Verdict.LINEARIZABLE, checked, unknown, leftOut, states, "");
    }

    static CheckResult notLinearizable(int checked, long unknown, int leftOut, int states, String explanation) {
        return new CheckResult(Verdict.NOT_LINEARIZABLE, checked, unknown, leftOut, states, explanation);
    }

    static CheckResult undecided(int checked, long unknown, int leftOut, int states, String explanation) {
        return new CheckResult(Verdict.UNDECIDED, checked, unknown, leftOut, states, explanation);
    }

    /** Linearizable, not linearizable, or undecided (the search ran out of its state budget). */
    public Verdict verdict() {
        return verdict;
    }

    /** Whether the history was found linearizable (false when undecided). */
    public boolean isLinearizable() {
        return verdict == Verdict.LINEARIZABLE;
    }

    /** Operations the search placed or left unplaced (with unknown outcomes included). */
    public int operationsChecked() {
        return operationsChecked;
    }

    /** Checked operations whose outcome was unknown: placed at most once, anywhere after their invocation. */
    public long unknownOutcomes() {
        return unknownOutcomes;
    }

    /** Operations left out: writes the store said it did not apply, reads without an answer. */
    public int leftOut() {
        return leftOut;
    }

    /** How many search states the check explored. */
    public int statesExplored() {
        return statesExplored;
    }

    /** For a history that is not linearizable: the operation no order explains, and the deepest order found; else empty. */
    public String explanation() {
        return explanation;
    }

    @Override
    public String toString() {
        String head = verdict.name().toLowerCase(Locale.ROOT).replace('_', ' ') + ": " + operationsChecked
                + " operations checked (" + unknownOutcomes + " with unknown outcomes), " + leftOut + " left out, "
                + statesExplored + " states explored";
        return explanation.isEmpty() ? head : head + "\n" + explanation;
    }
}
