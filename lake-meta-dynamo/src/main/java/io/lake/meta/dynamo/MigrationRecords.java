package io.lake.meta.dynamo;

import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Where the migration's internal records live. Every one has a hash key that starts with
 * {@code #}, which no public key can produce (a key starts with a family in {@code [a-z0-9]}):
 *
 * <pre>
 *   v2 table  pk = "#migration", sk = "#started"    the pair is a migration's: written by the first
 *                                                   DUAL open or DynamoMigration build, never removed
 *             pk = "#migration", sk = "#cursor"     the backfill's durable position and counts
 *             pk = "#migration", sk = "#barrier"    the finalizer's write barrier
 *             pk = "#migration", sk = "#complete"   the completion marker
 *   v1 table  k  = "#migration#complete"            the completion marker's copy, so that a
 *                                                   store that knows only the legacy table sees it
 * </pre>
 */
final class MigrationRecords {

    static final String V2_HASH = "#migration";
    static final String STARTED = "#started";
    static final String CURSOR = "#cursor";
    static final String BARRIER = "#barrier";
    static final String COMPLETE = "#complete";
    static final String V1_COMPLETE = "#migration#complete";

    private MigrationRecords() {}

    static Map<String, AttributeValue> v2Key(String record) {
        return V2Layout.keyOf(V2_HASH, record);
    }

    static Map<String, AttributeValue> v1CompleteKey() {
        return V1Layout.keyOf(V1_COMPLETE);
    }
}
