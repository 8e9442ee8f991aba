package io.lake.meta.maintenance;

import io.lake.meta.registry.TableRegistration;

/**
 * The caller's maintenance work, called by the sweeper under the table's lock with the
 * registration re-read under that lock, never with what the page scan saw.
 */
public interface TableMaintainer {

    /**
     * Maintains a live table (compaction, snapshot expiry...).
     *
     * @param table the registration as re-read under the lock
     * @return what to write back to the registration, if anything; the sweeper writes it with a
     *     compare-and-set on {@code table}'s exact bytes, through the lock's store
     */
    MaintenanceAction maintain(TableRegistration table);

    /**
     * Destroys what a dropped table's registration points at. Called only right after the sweeper's
     * claim of the cleanup (a write through the lock's store) was accepted. Must be idempotent: after
     * a crash between this call and the tombstone's deletion, the next sweep claims the tombstone
     * again and calls this again with the same location. The tombstone is deleted only after this
     * returns normally.
     *
     * @param tombstone the purging tombstone, re-read under the lock; it keeps the dropped table's location and format
     */
    void cleanUp(TableRegistration tombstone);
}
