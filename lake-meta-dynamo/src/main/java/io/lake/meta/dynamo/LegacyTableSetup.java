package io.lake.meta.dynamo;

import java.time.Duration;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Opens a legacy v1 table: makes sure it exists with the v1 key schema (a single string hash key
 * {@code k}) and reads the copy of the migration's completion marker it may hold. A legacy table
 * has no layout record: its layout has nothing to fix.
 */
final class LegacyTableSetup {

    private final DynamoDbClient client;
    private final String table;

    LegacyTableSetup(DynamoDbClient client, String table) {
        this.client = client;
        this.table = table;
    }

    /** Checks (or creates) the legacy table; whether it holds the completion marker (the migration was finalized). */
    boolean open(boolean createIfMissing, Duration activeTimeout) {
        new TableReady(client, table, TableReady.V1_SCHEMA, "v1 (legacy)").ensure(createIfMissing, activeTimeout);
        return completionMarker() != null;
    }

    private @Nullable Map<String, AttributeValue> completionMarker() {
        try {
            var response = client.getItem(r ->
                    r.tableName(table).key(MigrationRecords.v1CompleteKey()).consistentRead(true));
            return response.hasItem() && !response.item().isEmpty() ? response.item() : null;
        } catch (SdkException e) {
            throw Failures.onRead("reading the migration's completion marker", e, table);
        }
    }
}
