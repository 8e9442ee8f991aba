package io.lake.meta.cli.demo;

import io.lake.meta.GuardedResult;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.WriteResult;
import java.io.PrintWriter;

/** What a scene works with: the demo's store, its simulated time and the narration. */
final class DemoContext {

    private static final int ACTION_WIDTH = 50;

    private final MetaStore store;
    private final PrintWriter out;
    private final DemoTime time = new DemoTime();

    DemoContext(MetaStore store, PrintWriter out) {
        this.store = store;
        this.out = out;
    }

    MetaStore store() {
        return store;
    }

    /** The simulated wall clock and ticker every scene shares: it moves only when a scene moves it. */
    DemoTime clock() {
        return time;
    }

    /** Narrates one sentence. */
    void say(String text) {
        out.println("  " + text);
        out.flush();
    }

    /** Narrates a call and what it returned, on one line. */
    void step(String action, String outcome) {
        out.println(String.format("  %-" + ACTION_WIDTH + "s -> %s", action, outcome));
        out.flush();
    }

    /**
     * Stops the demo when the store did not do what the scene narrates: the demo doubles as a
     * smoke test, so a wrong outcome must fail it, not be printed as if all were well.
     *
     * @throws IllegalStateException if {@code condition} is false
     */
    void check(boolean condition, String expectation) {
        if (!condition) {
            throw new IllegalStateException("demo check failed: expected " + expectation);
        }
    }

    /** A write's answer, with the current value a conflict reports. */
    static String outcome(WriteResult result) {
        if (result.isApplied()) {
            return "applied";
        }
        if (!result.isCurrentKnown()) {
            return "conflict (current value unknown)";
        }
        return result.currentValue()
                .map(v -> "conflict, current value " + text(v))
                .orElse("conflict, key absent");
    }

    /** A guarded write's answer. */
    static String outcome(GuardedResult result) {
        return switch (result.outcome()) {
            case APPLIED -> "applied";
            case GUARD_REJECTED -> "guard rejected, nothing written";
            case TARGET_CONFLICT -> "target " + outcome(result.targetResult().orElseThrow());
        };
    }

    /** A demo value as its text: every demo value is UTF-8 JSON. */
    static String text(MetaValue value) {
        return value.asUtf8();
    }

    /** A page token shortened for reading: its first and last characters and its length. */
    static String shortToken(String token) {
        if (token.length() <= 16) {
            return token;
        }
        return token.substring(0, 8) + "..." + token.substring(token.length() - 4) + " (" + token.length() + " chars)";
    }
}
