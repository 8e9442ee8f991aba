package io.lake.meta.maintenance;

/**
 * What one sweeper tick did.
 *
 * @param scanned registrations on the page the tick read
 * @param maintained live tables handed to {@link TableMaintainer#maintain}
 * @param updated registrations the maintainer's actions changed
 * @param purged tombstones cleaned up and deleted
 * @param skipped candidates left alone: lock held elsewhere, gone or changed since the re-read
 * @param wrapped whether the page was the registry's last, so the next tick starts again at the first
 * @param cancelled whether the tick stopped before taking a lock because cancellation was requested;
 *     the next tick then reads the same page again
 * @since 0.1.0
 */
public record TickStatistics(
        int scanned, int maintained, int updated, int purged, int skipped, boolean wrapped, boolean cancelled) {}
