package io.lake.meta.dynamo;

import io.lake.meta.Entry;
import io.lake.meta.KeyPrefix;
import io.lake.meta.Page;
import io.lake.meta.PageCost;
import io.lake.meta.PageRequest;
import io.lake.meta.spi.PageTokenCodec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
 *
 * <p>The position a scan resumes after is the hash key of the last item it <em>evaluated</em>,
 * which may lie in another family (the filter dropped it), so its token holds a scan position
 * ({@link PageTokenCodec#encodeScanPosition}) rather than a key under the prefix.
 */
final class ScanPages implements PageReader {

    private final DynamoDbClient client;
    private final String table;
    private final PageTokenCodec tokens = new PageTokenCodec(V1Layout.DESCRIPTOR, 1);

    ScanPages(DynamoDbClient client, String table) {
        this.client = client;
        this.table = table;
    }

    @Override
    public Page page(PageRequest request) {
        KeyPrefix prefix = request.prefix();
        Map<String, AttributeValue> start = request.token()
                .map(token -> V1Layout.keyOf(tokens.decodeScanPosition(prefix, token)))
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
            entries.add(
                    new Entry(V1Layout.INSTANCE.keyUnder(item, prefix, table), V1Layout.INSTANCE.valueIn(item, table)));
        }
        long evaluated = response.scannedCount() == null ? entries.size() : response.scannedCount();
        if (entries.size() > request.limit() || evaluated > request.limit()) {
            throw new DynamoStoreException(
                    "Scan for prefix '" + prefix + "' evaluated " + evaluated + " items and returned " + entries.size()
                            + " for a limit of " + request.limit() + ": the endpoint does not honour Limit");
        }
        Optional<String> next = Optional.empty();
        if (response.hasLastEvaluatedKey() && !response.lastEvaluatedKey().isEmpty()) {
            AttributeValue position = response.lastEvaluatedKey().get(V1Layout.HASH);
            if (position == null || position.s() == null || position.s().isEmpty()) {
                throw new DynamoStoreException("Scan of table '" + table
                        + "' returned a LastEvaluatedKey without the hash key " + V1Layout.HASH + " ("
                        + response.lastEvaluatedKey() + "): the table is not in the v1 layout");
            }
            next = Optional.of(tokens.encodeScanPosition(prefix, position.s()));
        }
        double capacity = response.consumedCapacity() == null
                        || response.consumedCapacity().capacityUnits() == null
                ? 0
                : response.consumedCapacity().capacityUnits();
        return new Page(entries, next, new PageCost(evaluated, capacity));
    }
}
