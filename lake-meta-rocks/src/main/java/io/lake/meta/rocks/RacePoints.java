package io.lake.meta.rocks;

/**
 * The RocksDB store's own race-hook points, besides the contract's
 * {@link io.lake.meta.spi.RaceHooks#COMMIT_CHECKED}. Tests latch on them to order a race.
 */
final class RacePoints {

    /** A read or page holds the store open and is about to touch RocksDB. */
    static final String READ_STARTED = "rocks.read.started";

    /**
     * A writer queued its commit in the write group and is about to lead its batch or wait for it. A
     * hook that throws here fails that commit only (withdrawn while still queued) and never the
     * writers behind it.
     */
    static final String COMMIT_QUEUED = "rocks.commit.queued";

    /**
     * {@code close()} refuses new calls and is about to wait for the calls in flight. A hook that
     * throws here fails that close, after the store closed all the same.
     */
    static final String CLOSE_DRAINING = "rocks.close.draining";

    /** An open listed an existing directory and is about to read it read-only. */
    static final String OPEN_INSPECTING = "rocks.open.inspecting";

    private RacePoints() {}
}
