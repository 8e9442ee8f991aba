package io.lake.meta.dynamo;

import java.util.Optional;

/**
 * What {@link DynamoMigration#finalizeMigration(int)} did.
 *
 * @param outcome what happened
 * @param parity the verification's report; empty when no verification ran
 * @since 0.1.0
 */
public record FinalizeResult(Outcome outcome, Optional<ParityReport> parity) {

    /** What a finalize did. */
    public enum Outcome {
        /** The copies were verified equal and the completion marker was published. */
        FINALIZED,
        /** The marker already existed: nothing was verified or published (a barrier left by the finalize that published it is released). */
        ALREADY_FINALIZED,
        /** The backfill has not reached the end of the legacy table: nothing was done. */
        BACKFILL_INCOMPLETE,
        /** The copies differ (see the report): nothing was published, the barrier was released. */
        VERIFICATION_FAILED
    }
}
