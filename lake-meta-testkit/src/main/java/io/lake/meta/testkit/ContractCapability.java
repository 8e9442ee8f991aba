package io.lake.meta.testkit;

/**
 * What a backend may lack, declared by its contract test in
 * {@link ContractSupport#capabilities()} (every one by default). A missing capability changes what
 * the suite expects; it never makes a test pass by skipping it unannounced.
 */
public enum ContractCapability {

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
     * The store calls the {@link io.lake.meta.spi.RaceHooks} it was opened with at
     * {@link io.lake.meta.spi.RaceHooks#COMMIT_CHECKED} inside every commit, and a competing
     * writer waits for a held commit on a Java lock, monitor, latch or future. With it (the
     * default), the race tests hold a commit there and prove by ordering that no other commit
     * interleaves. Without it, those tests are reported as skipped with the reason, and the
     * concurrent-writer tests ({@link ConcurrentWriteContract}, which run on every backend)
     * are what remains: writers started together must still agree with one serial order.
     */
    RACE_HOOKS
}
