package io.lake.meta.maintenance;

import io.lake.meta.registry.TableId;
import java.util.Optional;

/**
 * Where the sweeper gets a table's lock: supplied by the caller, so maintenance of one table never
 * runs twice at once across processes. A fenced lock (its holder writes only through a view
 * fenced by the lock's epoch) is the intended implementation: {@link FencedTableLocks}. A
 * single-process service may use an in-process lock over a store fenced by its leadership.
 *
 * @since 0.1.0
 */
@FunctionalInterface
public interface TableLockProvider {

    /**
     * Takes the lock of {@code table} without waiting.
     *
     * @return the held lock, or empty when someone else holds it now (the sweeper skips the table
     *     this tick and meets it again on a later pass)
     */
    Optional<TableLock> tryLock(TableId table);
}
