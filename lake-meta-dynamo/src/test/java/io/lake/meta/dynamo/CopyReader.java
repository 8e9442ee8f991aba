package io.lake.meta.dynamo;

import io.lake.meta.MetaKey;
import io.lake.meta.MetaValue;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Reads and writes one table's copy of a key straight through the client, bypassing every store:
 * what a test needs to see both copies of a dual write, or to make one copy differ the way a
 * writer of one table alone would.
 */
record CopyReader(DynamoDbClient client, String legacyTable, String table, V2Layout layout) {

    Optional<MetaValue> legacyCopy(MetaKey key) {
        return read(legacyTable, V1Layout.INSTANCE.keyOf(key));
    }

    Optional<MetaValue> v2Copy(MetaKey key) {
        return read(table, layout.keyOf(key));
    }

    void putLegacyCopy(MetaKey key, MetaValue value) {
        client.putItem(r -> r.tableName(legacyTable).item(V1Layout.INSTANCE.itemOf(key, value)));
    }

    void putV2Copy(MetaKey key, MetaValue value) {
        client.putItem(r -> r.tableName(table).item(layout.itemOf(key, value)));
    }

    void deleteV2Copy(MetaKey key) {
        client.deleteItem(r -> r.tableName(table).key(layout.keyOf(key)));
    }

    /** Installs the write barrier as a finalizer would. */
    void installBarrier(String holder) {
        Map<String, AttributeValue> item = new java.util.HashMap<>(MigrationRecords.v2Key(MigrationRecords.BARRIER));
        item.put("holder", AttributeValue.fromS(holder));
        client.putItem(r -> r.tableName(table).item(item));
    }

    void removeBarrier() {
        client.deleteItem(r -> r.tableName(table).key(MigrationRecords.v2Key(MigrationRecords.BARRIER)));
    }

    private Optional<MetaValue> read(String t, Map<String, AttributeValue> key) {
        var item = client.getItem(r -> r.tableName(t).key(key).consistentRead(true));
        if (!item.hasItem() || item.item().isEmpty()) {
            return Optional.empty();
        }
        SdkBytes v = item.item().get("v").b();
        return Optional.of(MetaValue.of(v.asByteArray()));
    }
}
