package io.lake.meta.registry;

/**
 * Where a registration is in its life.
 *
 * @since 0.1.0
 */
public enum TableState {

    /** Registered: the table exists. */
    ACTIVE("active"),

    /**
     * Dropped: a tombstone. The table's data still exists until the maintenance sweep cleans it up;
     * the name can be re-registered only by superseding the tombstone or after the sweep deleted it.
     */
    DROPPED("dropped"),

    /**
     * A tombstone whose cleanup has started: the sweep calls the cleanup (again, after a crash)
     * and then deletes the tombstone. It can no longer be superseded.
     */
    PURGING("purging");

    private final String wireName;

    TableState(String wireName) {
        this.wireName = wireName;
    }

    /** The state's name in the stored record. */
    public String wireName() {
        return wireName;
    }

    /** Whether this is a tombstone (dropped or purging). */
    public boolean isTombstone() {
        return this != ACTIVE;
    }
}
