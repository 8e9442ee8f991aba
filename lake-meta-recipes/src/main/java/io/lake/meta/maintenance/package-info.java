/**
 * Paged maintenance over the table registry: a sweeper that reads one registry page per tick,
 * keeps only its continuation token in memory, re-reads each candidate under that table's lock
 * and hands only the re-read registration to the caller's {@link io.lake.meta.maintenance.TableMaintainer},
 * writing through the lock's (fenced) view of the store; {@link io.lake.meta.maintenance.FencedTableLocks}
 * is that lock provider for sweepers in many processes, a fenced lock per table. Tombstones are
 * cleaned up and deleted here. Limits are validated and parsed from the environment and options in
 * {@link io.lake.meta.maintenance.MaintenanceLimits}. See {@code docs/guides/recipes.md} and
 * {@code specs/registry-maintenance.spec.md}.
 */
@NullMarked
package io.lake.meta.maintenance;

import org.jspecify.annotations.NullMarked;
