package io.lake.meta.rocks;

/**
 * What a writer does while the batch holding its commit is being written by another writer (see
 * {@link RocksDbMetaStore.Builder#waitingWriters(WaitingWriters)}).
 *
 * @since 0.1.0
 */
public enum WaitingWriters {

    /**
     * Yield the CPU in a loop for about as long as a batch takes (twice the last batch's write, at
     * most 1 ms), then park. The default, as RocksDB's own write thread does: a writer still
     * runnable when its batch is answered goes on at once, where waking a parked one costs a
     * system call and, on a CPU gone idle, a wake-up that took about 25 µs on the virtual machines
     * this project is measured on. Concurrent synced writers reach far higher rates, at the price of
     * CPU spent yielding while they wait (a yield gives the CPU to any other runnable thread).
     */
    YIELD_THEN_PARK,

    /**
     * Park at once and be woken when the batch is written: no CPU spent waiting. Choose it where
     * busy-waiting counts against a CPU quota (a container's CPU limit, say) or where CPU matters
     * more than the rate of concurrent writes.
     */
    PARK
}
