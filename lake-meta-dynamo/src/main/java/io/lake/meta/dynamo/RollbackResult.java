package io.lake.meta.dynamo;

import java.util.Optional;

/**
 * What {@link DynamoMigration#rollback(int)} did.
 *
 * @param outcome what happened
 * @param parity the verification's report; empty when no verification ran
 * @since 0.1.0
 */
public record RollbackResult(Outcome outcome, Optional<ParityReport> parity) {

    /** What a rollback did. */
    public enum Outcome {
        /** Both copies were verified equal and the completion marker was removed: the legacy table is the authority again. */
        ROLLED_BACK,
        /** There was no completion marker: nothing to roll back. */
        NOT_FINALIZED,
        /** The rollback horizon was declared passed: the legacy table is no longer kept, so it cannot become the authority. */
        HORIZON_PASSED,
        /** The copies differ (see the report): nothing was changed, the barrier was released. */
        VERIFICATION_FAILED,
        /**
         * The rollback's write barrier was released by someone else (such as
         * {@code lake-meta dynamo-migrate release-barrier}) while it verified: nothing was changed;
         * run the rollback again.
         *
         * @since 0.1.0
         */
        BARRIER_LOST
    }
}
