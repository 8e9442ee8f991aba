package io.lake.meta.testkit;

/**
 * What the suites expect of a backend by default, and a backend may lack. A backend that lacks
 * one declares it, with the reason, in {@link BackendFactory#capabilities()}
 * ({@code Capabilities.all().without(Capability.RACE_HOOKS, "...")}); the suites then expect what
 * the capability says instead. A missing capability never makes a test pass by skipping it
 * unannounced: a skipped test carries the declared reason.
 *
 * @since 0.1.0
 */
public enum Capability {

    /**
     * A conflict carries the key's current value ({@link io.lake.meta.WriteResult#isCurrentKnown()},
     * {@link io.lake.meta.TransactionFailure#isCurrentKnown()}). Without it, a conflict whose
     * current value is unknown is accepted as a conflict, and the suite reads the key itself to
     * check what it holds; a current value the backend does report must still be right. With it
     * (the default), a conflict without its current value fails the test with a message naming
     * this capability.
     */
    CONFLICT_REPORTS_CURRENT_VALUE,

    /**
     * The store calls the {@link io.lake.meta.spi.RaceHooks} it was opened with
     * ({@link StoreContext#raceHooks()}) at {@link io.lake.meta.spi.RaceHooks#COMMIT_CHECKED}
     * inside every commit, and a competing writer waits for a held commit on a Java lock, monitor,
     * latch or future. With it (the default), the race tests hold a commit there and prove by
     * ordering that no other commit interleaves. Without it (a commit that runs in a server the
     * test cannot pause), those tests are reported as skipped with the reason, and the
     * concurrent-writer tests, which run on every backend, are what remains: writers started
     * together must still agree with one serial order.
     */
    RACE_HOOKS,

    /**
     * Pages equal the model's page for page: unsigned-byte key order, every page full while keys
     * remain. Without it (a layout whose page boundaries legitimately differ, such as one that
     * pages shard by shard), the model-equivalence tests check each page's bounds only, and the
     * full contents after each sequence must still equal the model's.
     */
    PAGES_MATCH_THE_MODEL,

    /**
     * The store implements {@link io.lake.meta.spi.KeyFamilies} (found through
     * {@link io.lake.meta.spi.KeyFamilies#of}). With it (the default), the "key families" group
     * checks the families it lists, and a store that cannot list them fails there with a message
     * naming this capability. Without it, those tests are reported as skipped with the reason; a
     * store declared without it that does list its families fails, so a declaration never
     * outlives the gap it explains.
     */
    KEY_FAMILIES
}
