package io.lake.meta.spi;

/**
 * Named pause points inside a backend, for tests that prove a race by ordering rather than by
 * sleeping. A backend calls {@link #reached(String)} at each point it documents; a test hook
 * may block there until the test releases it. Production stores use {@link #NONE}.
 *
 * @since 0.1.0
 */
@FunctionalInterface
public interface RaceHooks {

    /**
     * The point every backend must reach inside a commit whose preconditions hold: after the
     * commit's preconditions (guard and target) were checked and before its write becomes
     * visible. A backend may reach it for refused commits too (RocksDB does; the in-memory model
     * does not). The contract suite pauses one writer here to prove that a second writer cannot
     * interleave.
     */
    String COMMIT_CHECKED = "commit.checked";

    /** Hooks that do nothing. */
    RaceHooks NONE = point -> {};

    /**
     * Called by the backend when the calling thread reaches {@code point}. May block.
     *
     * @param point the point's documented name, such as {@link #COMMIT_CHECKED} ({@code "commit.checked"})
     */
    void reached(String point);
}
