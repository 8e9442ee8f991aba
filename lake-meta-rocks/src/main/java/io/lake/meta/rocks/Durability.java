package io.lake.meta.rocks;

/**
 * When a RocksDB store acknowledges a write.
 *
 * @since 0.1.0
 */
public enum Durability {

    /**
     * The write-ahead log is fsynced before a write is acknowledged: an acknowledged write
     * survives a process crash and a power loss. The default. Concurrent writers share fsyncs.
     */
    SYNCED_WAL,

    /**
     * The write-ahead log is written to the operating system but not fsynced before a write is
     * acknowledged: an acknowledged write survives a process crash, not a power loss (or an
     * operating-system crash). Opt in only when losing the last moments of writes is acceptable.
     */
    UNSYNCED_WAL
}
