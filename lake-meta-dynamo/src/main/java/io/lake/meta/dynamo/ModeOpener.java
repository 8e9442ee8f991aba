package io.lake.meta.dynamo;

import io.lake.meta.MetaStore;
import java.time.Duration;
import java.util.Map;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Opens the store of one {@link DynamoLayoutMode}: checks the tables the mode uses, reads the
 * migration's completion marker, and refuses what would fork the data.
 *
 * <ul>
 *   <li>{@code V1}: refused once the legacy table holds the completion marker (after
 *       finalization a writer that changes only the legacy table would make the copies differ);</li>
 *   <li>{@code DUAL}: the read authority is the v2 table when the marker exists, the legacy table
 *       otherwise; the two tables' copies of the marker must agree;</li>
 *   <li>{@code V2}: the v2 table alone, as without a migration.</li>
 * </ul>
 */
final class ModeOpener {

    private final DynamoDbClient client;
    private final boolean createIfMissing;
    private final Duration activeTimeout;

    ModeOpener(DynamoDbClient client, boolean createIfMissing, Duration activeTimeout) {
        this.client = client;
        this.createIfMissing = createIfMissing;
        this.activeTimeout = activeTimeout;
    }

    MetaStore openV1(String legacyTable) {
        if (new LegacyTableSetup(client, legacyTable).open(createIfMissing, activeTimeout)) {
            throw new DynamoStoreException("legacy table '" + legacyTable + "' holds the completion marker of a finalized"
                    + " migration to the v2 layout, so a store in mode V1 will not open it: a writer that changes only the"
                    + " legacy table after finalization would make the two copies differ. Open the store in mode DUAL (it"
                    + " reads the v2 table and keeps both copies) or V2; to return to V1, roll the migration back first"
                    + " (see the DynamoDB migration guide)");
        }
        return new DynamoV1Store(client, legacyTable);
    }

    MetaStore openDual(String legacyTable, String table, Integer shardCount) {
        boolean legacyMarker = new LegacyTableSetup(client, legacyTable).open(createIfMissing, activeTimeout);
        V2Layout layout = new TableSetup(client, table).open(shardCount, createIfMissing, activeTimeout);
        boolean marker = readV2(table, MigrationRecords.v2Key(MigrationRecords.COMPLETE)) != null;
        if (marker != legacyMarker) {
            throw new DynamoStoreException("the migration's completion marker is " + (marker ? "present" : "absent")
                    + " in the v2 table '" + table + "' but " + (legacyMarker ? "present" : "absent")
                    + " in the legacy table '" + legacyTable + "': they are written and removed together, so one was"
                    + " changed by hand. Check both tables (lake-meta dynamo-migrate --status) before opening a store");
        }
        DualAuthority authority = marker ? DualAuthority.V2 : DualAuthority.V1;
        return new DynamoDualStore(client, legacyTable, table, layout, authority);
    }

    MetaStore openV2(String table, Integer shardCount) {
        V2Layout layout = new TableSetup(client, table).open(shardCount, createIfMissing, activeTimeout);
        return new DynamoV2Store(client, table, layout);
    }

    private Map<String, AttributeValue> readV2(String table, Map<String, AttributeValue> key) {
        try {
            var response = client.getItem(r -> r.tableName(table).key(key).consistentRead(true));
            return response.hasItem() && !response.item().isEmpty() ? response.item() : null;
        } catch (SdkException e) {
            throw Failures.onRead("reading the migration's completion marker", e, table);
        }
    }
}
