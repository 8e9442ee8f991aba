package io.lake.meta.dynamo;

import java.time.Instant;
import java.util.Optional;

/**
 * Where a migration stands ({@link DynamoMigration#status()}), read from its internal records.
 *
 * @param backfill the backfill cursor's totals (all zero before the first page)
 * @param legacyItemEstimate DynamoDB's item count of the legacy table (updated by DynamoDB about
 *     every six hours; an estimate for progress, never used to decide anything)
 * @param barrier the write barrier, when one is installed
 * @param completion the completion marker, once the migration was finalized
 * @since 0.1.0
 */
public record MigrationStatus(
        BackfillPage.BackfillTotals backfill,
        long legacyItemEstimate,
        Optional<Barrier> barrier,
        Optional<Completion> completion) {

    /**
     * An installed write barrier: every dual write is refused while it is held. One left by a
     * finalizer that stopped is released with {@link DynamoMigration#releaseBarrier()}.
     *
     * @param holder the finalizer that installed it (a random id per finalize run)
     * @param installedAt when, by the finalizer's clock
     */
    public record Barrier(String holder, Instant installedAt) {}

    /**
     * The completion marker: the copies were verified equal under the barrier.
     *
     * @param items the items verified
     * @param digest the verified content's digest
     * @param finalizedAt when, by the finalizer's clock
     * @param rollbackHorizonPassed whether the operator declared the rollback horizon passed: the
     *     legacy table is no longer kept, stores may run in mode V2, no rollback is possible
     */
    public record Completion(long items, String digest, Instant finalizedAt, boolean rollbackHorizonPassed) {}
}
