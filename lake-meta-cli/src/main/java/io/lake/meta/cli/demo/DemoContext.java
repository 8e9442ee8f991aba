package io.lake.meta.cli.demo;

import io.lake.meta.MetaStore;
import java.io.PrintWriter;

/** What a scene works with: the demo's store and the narration. */
public final class DemoContext {

    private static final int ACTION_WIDTH = 58;

    private final MetaStore store;
    private final PrintWriter out;

    public DemoContext(MetaStore store, PrintWriter out) {
        this.store = store;
        this.out = out;
    }

    public MetaStore store() {
        return store;
    }

    /** Narrates one sentence. */
    public void say(String text) {
        out.println("  " + text);
        out.flush();
    }

    /** Narrates a call and what it returned, on one line. */
    public void step(String action, Object outcome) {
        out.println(String.format("  %-" + ACTION_WIDTH + "s -> %s", action, outcome));
        out.flush();
    }

    /**
     * Stops the demo when the store did not do what the scene narrates: the demo doubles as a
     * smoke test, so a wrong outcome must fail it, not be printed as if all were well.
     *
     * @throws IllegalStateException if {@code condition} is false
     */
    public void check(boolean condition, String expectation) {
        if (!condition) {
            throw new IllegalStateException("demo check failed: expected " + expectation);
        }
    }

    /** A page token shortened for reading: its first and last characters and its length. */
    public static String shortToken(String token) {
        if (token.length() <= 16) {
            return token;
        }
        return token.substring(0, 8) + "..." + token.substring(token.length() - 4)
                + " (" + token.length() + " chars)";
    }
}
