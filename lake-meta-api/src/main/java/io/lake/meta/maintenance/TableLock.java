package io.lake.meta.maintenance;

import io.lake.meta.MetaStore;

/**
 * A held table lock. Everything the sweeper writes for the table while holding it goes through
 * {@link #store()}, so a holder that lost the lock (paused past its lease, taken over) writes
 * nothing.
 */
public interface TableLock extends AutoCloseable {

    /** The store to read and write the table's records through while the lock is held; usually fenced by the lock. */
    MetaStore store();

    /** Releases the lock. Idempotent; never throws for a lock already lost. */
    @Override
    void close();
}
