package io.lake.meta.dynamo;

/** Which copy a {@link DynamoLayoutMode#DUAL} store reads and conditions writes on. */
enum DualAuthority {

    /** The legacy table: before the migration is finalized. */
    V1,

    /** The v2 table: once the completion marker exists. */
    V2
}
