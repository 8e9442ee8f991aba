package io.lake.meta.rocks;

/**
 * The group commit's timing, taken from what the store just saw: how long a waiting writer yields
 * the CPU before it parks ({@link #yieldNanos()}), and how long a leading writer may wait for more
 * commits before it writes a batch ({@link #waitNanos()}). The latter is what PostgreSQL's
 * {@code commit_delay} with {@code commit_siblings} and MySQL's
 * {@code binlog_group_commit_sync_delay} with {@code ..._no_delay_count} set by hand.
 *
 * <p>Why: the writers a batch answered come back with their next commit a moment after the next
 * leader took the queue, so without a wait concurrent writers split into two alternating halves,
 * each half paying a whole sync. The leader therefore waits until as many commits are queued as
 * were in flight at the end of the last batch (its applied commits plus those still queued), and
 * never longer than half of the last batch's write: the wait may cost a little latency to save a
 * whole sync, never more than the sync it could save. A writer alone expects only itself and
 * never waits; writes too fast to be worth a wait (unsynced ones, or a disk that syncs in a few
 * microseconds) never wait either. Refused commits are not waited for: their writers usually read
 * again before they retry, and on a hot key only one of them could win the next batch anyway, so
 * waiting for them would only cost the winners' syncs.
 *
 * <p>Not thread-safe: only used under the {@link WriteGroup}'s mutex.
 */
final class BatchGathering {

    /** A wait shorter than this costs more (a park and a wake-up) than it can save. */
    static final long MIN_WAIT_NANOS = 20_000;

    /** Longest wait whatever the last write took: a stalled sync must not stall the next batch more. */
    static final long MAX_WAIT_NANOS = 1_000_000;

    /** Longest a waiting writer yields before it parks: past it, the CPU is better left to others. */
    static final long MAX_YIELD_NANOS = 1_000_000;

    private int expectedCommits = 1;
    private long lastWriteNanos;

    /** How many commits the next batch should wait for, at most {@code limit}. */
    int expectedCommits(int limit) {
        return Math.min(expectedCommits, limit);
    }

    /** How long the next leader may wait for them; 0 when it must not wait at all. */
    long waitNanos() {
        long wait = Math.min(lastWriteNanos / 2, MAX_WAIT_NANOS);
        return wait < MIN_WAIT_NANOS ? 0 : wait;
    }

    /**
     * How long a writer waiting for its batch should yield the CPU before it parks: twice the last
     * write, so that a writer queued just as a batch began is still runnable when its own batch is
     * answered, at most {@link #MAX_YIELD_NANOS}; 0 (park at once) after a batch that wrote nothing.
     */
    long yieldNanos() {
        return Math.min(2 * lastWriteNanos, MAX_YIELD_NANOS);
    }

    /**
     * A batch that applied {@code appliedCommits} was written in {@code writeNanos} (0 when it
     * wrote nothing: every commit refused, or the write failed), with {@code stillQueued} commits
     * waiting behind it.
     */
    void written(int appliedCommits, int stillQueued, long writeNanos) {
        expectedCommits = Math.max(1, appliedCommits + stillQueued);
        lastWriteNanos = Math.max(0, writeNanos);
    }
}
