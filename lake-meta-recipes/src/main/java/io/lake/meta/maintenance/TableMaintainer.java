package io.lake.meta.maintenance;

import io.lake.meta.registry.TableRegistration;

/**
 * The caller's maintenance work, called by the sweeper under the table's lock with the
 * registration re-read under that lock, never with what the page scan saw.
 *
 * <p>Implement {@link #maintain(TableRegistration)} and {@link #cleanUp(TableRegistration)}, or,
 * to see the lock the work runs under (its fencing {@link TableLock#epoch() epoch}, its
 * store), the two-argument forms instead: the sweeper calls the two-argument forms, which by
 * default call the one-argument ones.
 *
 * @since 0.1.0
 */
public interface TableMaintainer {

    /**
     * Maintains a live table (compaction, snapshot expiry...).
     *
     * @param table the registration as re-read under the lock
     * @return what to write back to the registration, if anything; the sweeper writes it with a
     *     compare-and-set on {@code table}'s exact bytes, through the lock's store
     */
    default MaintenanceAction maintain(TableRegistration table) {
        throw new UnsupportedOperationException(
                getClass().getName() + " implements neither maintain(table) nor" + " maintain(table, lock)");
    }

    /**
     * {@link #maintain(TableRegistration)}, with the lock it runs under: its store is the one the
     * sweeper writes the action through (pinned to the lock's term when fenced), its epoch the
     * fencing token for side effects outside the store. The lock is the sweeper's to release.
     *
     * @since 0.1.0
     */
    default MaintenanceAction maintain(TableRegistration table, TableLock lock) {
        return maintain(table);
    }

    /**
     * Destroys what a dropped table's registration points at. Called only right after the sweeper's
     * claim of the cleanup (a write through the lock's store) was accepted. Must be idempotent: after
     * a crash between this call and the tombstone's deletion, the next sweep claims the tombstone
     * again and calls this again with the same location. The tombstone is deleted only after this
     * returns normally.
     *
     * @param tombstone the purging tombstone, re-read under the lock; it keeps the dropped table's location and format
     */
    default void cleanUp(TableRegistration tombstone) {
        throw new UnsupportedOperationException(
                getClass().getName() + " implements neither cleanUp(tombstone) nor" + " cleanUp(tombstone, lock)");
    }

    /**
     * {@link #cleanUp(TableRegistration)}, with the lock it runs under (see
     * {@link #maintain(TableRegistration, TableLock)}): stamp the destruction with its epoch.
     *
     * @since 0.1.0
     */
    default void cleanUp(TableRegistration tombstone, TableLock lock) {
        cleanUp(tombstone);
    }
}
