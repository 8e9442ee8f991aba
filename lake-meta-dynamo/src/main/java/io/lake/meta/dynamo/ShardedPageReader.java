package io.lake.meta.dynamo;

import io.lake.meta.Entry;
import io.lake.meta.KeyPrefix;
import io.lake.meta.MetaKey;
import io.lake.meta.Page;
import io.lake.meta.PageCost;
import io.lake.meta.PageRequest;
import io.lake.meta.spi.PageCursor;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;

/**
 * Reads one caller page of a prefix in the v2 layout: a strongly consistent Query of the shard
 * the cursor names, and, when that shard runs out before the page is full, of the family's next
 * shards in turn within the same call, each asked only for what the page still lacks. So a page
 * evaluates at most its limit, never reads another family, and a full listing of n keys takes at
 * most ceil(n/limit) + 1 page calls and shards + ceil(n/limit) Queries (each Query either ends a
 * shard or fills a page). A Query cut short by DynamoDB's 1 MB response limit ends the page there,
 * with a token into the same shard, so a page's heap stays bounded.
 */
final class ShardedPageReader implements PageReader {

    private final DynamoDbClient client;
    private final String table;
    private final V2Layout layout;

    ShardedPageReader(DynamoDbClient client, String table, V2Layout layout) {
        this.client = client;
        this.table = table;
        this.layout = layout;
    }

    @Override
    public Page page(PageRequest request) {
        KeyPrefix prefix = request.prefix();
        PageCursor cursor = request.token()
                .map(token -> layout.tokens().decode(prefix, token))
                .orElse(PageCursor.startOf(0));
        return read(prefix, cursor, request.limit());
    }

    private Page read(KeyPrefix prefix, PageCursor cursor, int limit) {
        List<Entry> entries = new ArrayList<>();
        long evaluated = 0;
        double capacity = 0;
        int requests = 0;
        int shard = cursor.partition();
        Optional<MetaKey> after = cursor.afterKey(prefix);
        while (true) {
            int wanted = limit - entries.size();
            QueryResponse response = query(prefix, shard, after, wanted);
            requests++;
            int returned = response.items().size();
            if (returned > wanted) {
                throw new DynamoStoreException("Query of prefix '" + prefix + "' returned " + returned
                        + " items for a limit of " + wanted + ": the endpoint does not honour Limit");
            }
            for (Map<String, AttributeValue> item : response.items()) {
                entries.add(new Entry(layout.keyUnder(item, prefix, table), layout.valueIn(item, table)));
            }
            evaluated += response.scannedCount() == null ? returned : response.scannedCount();
            capacity += capacityOf(response);
            Optional<String> next;
            if (response.hasLastEvaluatedKey() && !response.lastEvaluatedKey().isEmpty()) {
                // the page is full, or the response reached 1 MB: resume in this shard
                MetaKey last = layout.keyUnder(response.lastEvaluatedKey(), prefix, table);
                next = Optional.of(layout.tokens().encode(prefix, PageCursor.after(shard, prefix, last)));
            } else if (shard + 1 >= layout.shards()) {
                next = Optional.empty(); // the family's last shard is done
            } else if (entries.size() >= limit) {
                next = Optional.of(layout.tokens().encode(prefix, PageCursor.startOf(shard + 1)));
            } else {
                shard++; // this shard is done and the page is not full: go on with the next
                after = Optional.empty();
                continue;
            }
            return new Page(entries, next, new PageCost(evaluated, capacity, requests));
        }
    }

    private QueryResponse query(KeyPrefix prefix, int shard, Optional<MetaKey> after, int limit) {
        String bucket = V2Layout.bucket(prefix.family(), shard);
        Map<String, AttributeValue> start =
                after.map(key -> V2Layout.keyOf(bucket, key.toString())).orElse(null);
        try {
            return client.query(r -> r.tableName(table)
                    .keyConditionExpression("#h = :h AND begins_with(#k, :prefix)")
                    .expressionAttributeNames(Map.of("#h", V2Layout.HASH, "#k", V2Layout.RANGE))
                    .expressionAttributeValues(
                            Map.of(":h", V2Layout.s(bucket), ":prefix", V2Layout.s(prefix.toString())))
                    .consistentRead(true)
                    .limit(limit)
                    .exclusiveStartKey(start)
                    .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL));
        } catch (SdkException e) {
            throw Failures.onRead("Query of prefix '" + prefix + "' (shard " + shard + ")", e, table);
        }
    }

    private static double capacityOf(QueryResponse response) {
        return response.consumedCapacity() == null
                        || response.consumedCapacity().capacityUnits() == null
                ? 0
                : response.consumedCapacity().capacityUnits();
    }
}
