package io.lake.meta.dynamo;

/**
 * Which tables a {@link DynamoMetaStore} reads and writes, in the order an online migration from
 * the legacy v1 layout to the sharded v2 layout goes through them (see
 * {@code docs/guides/dynamodb-migration.md}).
 *
 * @since 0.1.0
 */
public enum DynamoLayoutMode {

    /**
     * The legacy table alone (hash key = the full logical key). Pages are filtered Scans, the one
     * exception to bounded page cost. Refused once the migration's completion marker exists: a
     * v1-only writer after finalization would fork the data.
     */
    V1,

    /**
     * Both tables: every write changes both copies in one transaction, and checks the
     * migration's write barrier. Reads go to the authority, picked when the store opens: the
     * legacy table until the completion marker exists, the v2 table from then on.
     */
    DUAL,

    /** The v2 table alone: the default, and the end of a migration. */
    V2
}
