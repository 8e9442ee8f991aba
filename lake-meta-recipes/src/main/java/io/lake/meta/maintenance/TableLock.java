package io.lake.meta.maintenance;

import io.lake.meta.MetaStore;
import java.util.OptionalLong;

/**
 * A held table lock. Everything the sweeper writes for the table while holding it goes through
 * {@link #store()}, so a holder that lost the lock (paused past its lease, taken over) writes
 * nothing.
 *
 * @since 0.1.0
 */
public interface TableLock extends AutoCloseable {

    /** The store to read and write the table's records through while the lock is held; usually fenced by the lock. */
    MetaStore store();

    /**
     * The fencing epoch of this hold, when the lock has one ({@link FencedTableLocks}: the hold's
     * epoch, higher than every earlier hold's on the table): stamp the maintenance's external side
     * effects with it (file names, a conditional write elsewhere), so a system outside the store
     * can refuse the work of a holder that was taken over. Empty for locks without epochs.
     *
     * @since 0.1.0
     */
    default OptionalLong epoch() {
        return OptionalLong.empty();
    }

    /** Releases the lock. Idempotent; never throws for a lock already lost. */
    @Override
    void close();
}
