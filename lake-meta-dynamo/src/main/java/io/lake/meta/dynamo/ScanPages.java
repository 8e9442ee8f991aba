package io.lake.meta.dynamo;

import io.lake.meta.Entry;
import io.lake.meta.KeyPrefix;
import io.lake.meta.MetaKey;
import io.lake.meta.Page;
import io.lake.meta.PageCost;
import io.lake.meta.PageRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;

/**
 * Prefix pages of the v1 layout: one strongly consistent {@code Scan} per page with
 * {@code Limit} = the page's limit and the filter {@code begins_with(k, :prefix)}.
 *
 * <p>This is the one documented exception to bounded page cost: a scan has no key condition, so
 * it evaluates items of every family and keeps those under the prefix. Each page still evaluates
 * at most {@code limit} items (DynamoDB's {@code Limit} counts items before the filter), but it may
 * return none of them while a token follows, and iterating a prefix evaluates the whole table.
 * {@link PageCost#itemsEvaluated()} is the scan's {@code ScannedCount}, the page's entries what
 * it returned.
 */
final class ScanPages {

    private final DynamoDbClient client;
    private final String table;
    private final ScanTokens tokens = new ScanTokens(V1Layout.DESCRIPTOR);

    ScanPages(DynamoDbClient client, String table) {
        this.client = client;
        this.table = table;
    }

    Page page(PageRequest request) {
        KeyPrefix prefix = request.prefix();
        Map<String, AttributeValue> start = request.token()
                .map(token -> V1Layout.keyOf(tokens.decode(prefix, token)))
                .orElse(null);
        ScanResponse response;
        try {
            response = client.scan(r -> r.tableName(table)
                    .filterExpression("begins_with(#k, :prefix)")
                    .expressionAttributeNames(Map.of("#k", V1Layout.HASH))
                    .expressionAttributeValues(Map.of(":prefix", AttributeValue.fromS(prefix.toString())))
                    .consistentRead(true)
                    .limit(request.limit())
                    .exclusiveStartKey(start)
                    .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL));
        } catch (SdkException e) {
            throw Failures.onRead("Scan for prefix '" + prefix + "'", e, table);
        }
        List<Entry> entries = new ArrayList<>(response.items().size());
        for (Map<String, AttributeValue> item : response.items()) {
            entries.add(new Entry(keyUnder(prefix, item), V1Layout.INSTANCE.valueIn(item, table)));
        }
        long evaluated = response.scannedCount() == null ? entries.size() : response.scannedCount();
        if (entries.size() > request.limit() || evaluated > request.limit()) {
            throw new DynamoStoreException("Scan for prefix '" + prefix + "' evaluated " + evaluated + " items and returned "
                    + entries.size() + " for a limit of " + request.limit() + ": the endpoint does not honour Limit");
        }
        Optional<String> next = Optional.empty();
        if (response.hasLastEvaluatedKey() && !response.lastEvaluatedKey().isEmpty()) {
            AttributeValue position = response.lastEvaluatedKey().get(V1Layout.HASH);
            if (position == null || position.s() == null || position.s().isEmpty()) {
                throw new DynamoStoreException("Scan of table '" + table + "' returned a LastEvaluatedKey without the hash key "
                        + V1Layout.HASH + " (" + response.lastEvaluatedKey() + "): the table is not in the v1 layout");
            }
            next = Optional.of(tokens.encode(prefix, position.s()));
        }
        double capacity = response.consumedCapacity() == null || response.consumedCapacity().capacityUnits() == null
                ? 0 : response.consumedCapacity().capacityUnits();
        return new Page(entries, next, new PageCost(evaluated, capacity));
    }

    private MetaKey keyUnder(KeyPrefix prefix, Map<String, AttributeValue> item) {
        String text = V1Layout.INSTANCE.keyTextOf(item);
        try {
            MetaKey key = MetaKey.of(Objects.requireNonNull(text)); // an item without a key is reported below
            if (prefix.contains(key)) {
                return key;
            }
        } catch (RuntimeException e) {
            // reported below
        }
        throw new DynamoStoreException("item with hash key " + text + " in table '" + table
                + "' is not a lake-meta key under prefix '" + prefix + "': the table holds data lake-meta did not write");
    }
}
