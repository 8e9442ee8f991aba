package io.lake.meta.copy;

import io.lake.meta.KeyPrefix;

/**
 * The running totals of a copy after a page was written and its resume point recorded.
 *
 * @param prefix the prefix being copied
 * @param pages pages written by the whole copy, across resumed runs
 * @param copied keys created in the target, across resumed runs
 * @param alreadyEqual keys the target already held with the same value (only into a non-empty target)
 * @param differing keys the target held with another value, left as they were
 * @since 0.1.0
 */
public record CopyProgress(KeyPrefix prefix, long pages, long copied, long alreadyEqual, long differing) {

    /** Keys read from the source so far. */
    public long read() {
        return copied + alreadyEqual + differing;
    }
}
