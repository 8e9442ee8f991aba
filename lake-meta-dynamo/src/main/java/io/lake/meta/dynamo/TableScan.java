package io.lake.meta.dynamo;

import io.lake.meta.MetaKey;
import io.lake.meta.MetaValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;

/**
 * Bounded, strongly consistent Scan pages over one table of either layout, as the migration reads
 * them: the logical items of the page (internal records, whose keys start with {@code #}, left
 * out) and where the next page starts. Memory is bounded by the page size.
 */
final class TableScan {

    /** One logical item. */
    record Item(MetaKey key, MetaValue value) {}

    /** One page: what it evaluated, its logical items, and the hash key (v1) or key (v2) to resume after. */
    record ScanPage(long scanned, List<Item> items, Optional<Map<String, AttributeValue>> next) {}

    private final DynamoDbClient client;
    private final String table;
    private final ItemLayout layout;

    TableScan(DynamoDbClient client, String table, ItemLayout layout) {
        this.client = client;
        this.table = table;
        this.layout = layout;
    }

    ScanPage page(int limit, @Nullable Map<String, AttributeValue> start) {
        ScanResponse response;
        try {
            response = client.scan(
                    r -> r.tableName(table).consistentRead(true).limit(limit).exclusiveStartKey(start));
        } catch (SdkException e) {
            throw Failures.onRead("Scan", e, table);
        }
        List<Item> items = new ArrayList<>(response.items().size());
        for (Map<String, AttributeValue> item : response.items()) {
            AttributeValue hash = item.get(layout.hashAttribute());
            if (hash != null && ItemLayout.isInternal(hash.s())) {
                continue;
            }
            String text = layout.keyTextOf(item);
            MetaKey key;
            try {
                key = MetaKey.of(Objects.requireNonNull(text)); // an item without a key is reported below
            } catch (RuntimeException e) {
                throw new DynamoStoreException(
                        "table '" + table + "' holds an item whose key " + text
                                + " is not a lake-meta key: the table holds data lake-meta did not write; migrate it by hand",
                        e);
            }
            items.add(new Item(key, layout.valueIn(item, table)));
        }
        long scanned = response.scannedCount() == null ? response.items().size() : response.scannedCount();
        Optional<Map<String, AttributeValue>> next =
                response.hasLastEvaluatedKey() && !response.lastEvaluatedKey().isEmpty()
                        ? Optional.of(response.lastEvaluatedKey())
                        : Optional.empty();
        return new ScanPage(scanned, items, next);
    }

    /** One key's item, read strongly consistently. */
    Optional<MetaValue> read(MetaKey key) {
        try {
            var response = client.getItem(
                    r -> r.tableName(table).key(layout.keyOf(key)).consistentRead(true));
            return response.hasItem() && !response.item().isEmpty()
                    ? Optional.of(layout.valueIn(response.item(), table))
                    : Optional.empty();
        } catch (SdkException e) {
            throw Failures.onRead("GetItem of '" + key + "'", e, table);
        }
    }
}
