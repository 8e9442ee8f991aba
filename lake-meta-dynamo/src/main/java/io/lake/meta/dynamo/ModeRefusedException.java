package io.lake.meta.dynamo;

/**
 * A store was not opened because its mode could write around the migration of its tables: a
 * {@code V2} store on a migration's target before the rollback horizon was declared passed, a
 * {@code V1} store once the migration is finalized. The message says why and which mode to use
 * instead; {@link #reason()} says it for code. Nothing was written. Not retryable: the same
 * configuration is refused until the migration's phase changes (see the DynamoDB migration guide).
 *
 * @since 0.1.0
 */
public final class ModeRefusedException extends DynamoStoreException {

    /** Why a mode was refused. */
    public enum Reason {
        /** The tables are in a migration that is not finalized (or was rolled back): the legacy table is the authority; use mode DUAL. */
        MIGRATION_NOT_FINALIZED,
        /** The migration is finalized but its rollback horizon was not declared passed: every write keeps the legacy copy too; use mode DUAL. */
        ROLLBACK_HORIZON_NOT_PASSED,
        /** The migration is finalized: a writer of the legacy table alone would fork the copies; use mode DUAL or V2. */
        MIGRATION_FINALIZED
    }

    private final DynamoLayoutMode mode;
    private final Reason reason;

    /** {@code mode} refused for {@code reason}, explained by {@code message}. */
    public ModeRefusedException(DynamoLayoutMode mode, Reason reason, String message) {
        super(message);
        this.mode = mode;
        this.reason = reason;
    }

    /** The mode that was refused. */
    public DynamoLayoutMode mode() {
        return mode;
    }

    /** Why. */
    public Reason reason() {
        return reason;
    }
}
