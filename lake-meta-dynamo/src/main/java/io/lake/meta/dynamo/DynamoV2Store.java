package io.lake.meta.dynamo;

import io.lake.meta.Entry;
import io.lake.meta.InvalidArgumentException;
import io.lake.meta.KeyPrefix;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.Mutation;
import io.lake.meta.Page;
import io.lake.meta.PageCost;
import io.lake.meta.PageRequest;
import io.lake.meta.StoreClosedException;
import io.lake.meta.Transaction;
import io.lake.meta.TransactionResult;
import io.lake.meta.WriteResult;
import io.lake.meta.spi.BatchKeys;
import io.lake.meta.spi.PageCursor;
import io.lake.meta.spi.PollingWatcher;
import io.lake.meta.watch.Watch;
import io.lake.meta.watch.WatchListener;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;

/**
 * The MetaStore contract over a DynamoDB table in the v2 layout (see {@link V2Layout}).
 *
 * <p>Every call is one DynamoDB request (the SDK may retry it): a consistent GetItem, one
 * conditional PutItem or DeleteItem, one TransactWriteItems, or one consistent Query. The
 * preconditions are checked and the write applied inside DynamoDB, atomically; there is no
 * client-side lock. Writes from other processes land in the same table, so watches cannot hear
 * commits: a {@link PollingWatcher} lists each watched prefix through {@link #page} once per poll
 * interval. Thread-safe; the client is shared and never closed here.
 */
final class DynamoV2Store implements MetaStore {



    private final DynamoDbClient client;
    private final String table;
    private final V2Layout layout;
    private final SingleItemWrite singleWrites;
    private final TransactWrite transactions;
    private final BatchRead batchReads;
    private final Duration pollInterval;
    private final PollingWatcher watches;
    private final AtomicBoolean closed = new AtomicBoolean();

    DynamoV2Store(DynamoDbClient client, String table, V2Layout layout, Duration pollInterval) {
        this.client = client;
        this.table = table;
        this.layout = layout;
        this.singleWrites = new SingleItemWrite(client, table, layout);
        this.transactions = new TransactWrite(client, table, layout);
        this.batchReads = new BatchRead(client, table, layout);
        this.pollInterval = pollInterval;
        this.watches = new PollingWatcher(this, pollInterval, toString());
    }

    @Override
    public Optional<MetaValue> get(MetaKey key) {
        checkOpen();
        notNull(key, "key");
        GetItemResponse response;
        try {
            response = client.getItem(r -> r.tableName(table).key(layout.keyOf(key)).consistentRead(true));
        } catch (SdkException e) {
            throw Failures.onRead("GetItem of '" + key + "'", e, table);
        }
        if (!response.hasItem() || response.item().isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(V2Layout.valueOf(response.item(), table));
    }

    @Override
    public Map<MetaKey, MetaValue> getAll(Collection<MetaKey> keys) {
        checkOpen();
        return batchReads.read(BatchKeys.requireValid(keys));
    }

    @Override
    public WriteResult apply(Mutation mutation) {
        checkOpen();
        notNull(mutation, "mutation");
        return singleWrites.apply(mutation);
    }

    @Override
    public TransactionResult transact(Transaction transaction) {
        checkOpen();
        notNull(transaction, "transaction");
        return transactions.run(transaction);
    }

    @Override
    public Page page(PageRequest request) {
        checkOpen();
        notNull(request, "page request");
        KeyPrefix prefix = request.prefix();
        PageCursor cursor = request.token()
                .map(token -> layout.tokens().decode(prefix, token))
                .orElse(PageCursor.startOf(0));
        int shard = cursor.partition();
        String bucket = V2Layout.bucket(prefix.family(), shard);
        Map<String, AttributeValue> start = cursor.afterKey(prefix)
                .map(after -> V2Layout.keyOf(bucket, after.toString()))
                .orElse(null);
        QueryResponse response;
        try {
            response = client.query(r -> r.tableName(table)
                    .keyConditionExpression("#h = :h AND begins_with(#k, :prefix)")
                    .expressionAttributeNames(Map.of("#h", V2Layout.HASH, "#k", V2Layout.RANGE))
                    .expressionAttributeValues(Map.of(":h", V2Layout.s(bucket), ":prefix", V2Layout.s(prefix.toString())))
                    .consistentRead(true)
                    .limit(request.limit())
                    .exclusiveStartKey(start)
                    .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL));
        } catch (SdkException e) {
            throw Failures.onRead("Query of prefix '" + prefix + "' (shard " + shard + ")", e, table);
        }
        List<Entry> entries = new ArrayList<>(response.count() == null ? 0 : response.count());
        for (Map<String, AttributeValue> item : response.items()) {
            entries.add(new Entry(V2Layout.keyOfItem(item, prefix, table), V2Layout.valueOf(item, table)));
        }
        if (entries.size() > request.limit()) {
            throw new DynamoStoreException("Query of prefix '" + prefix + "' returned " + entries.size()
                    + " items for a limit of " + request.limit() + ": the endpoint does not honour Limit");
        }
        Optional<String> next = nextToken(prefix, shard, response);
        double capacity = response.consumedCapacity() == null || response.consumedCapacity().capacityUnits() == null
                ? 0 : response.consumedCapacity().capacityUnits();
        long evaluated = response.scannedCount() == null ? entries.size() : response.scannedCount();
        return new Page(entries, next, new PageCost(evaluated, capacity));
    }

    /** Resume in the same shard after the last evaluated key; else the next shard of the family; else done. */
    private Optional<String> nextToken(KeyPrefix prefix, int shard, QueryResponse response) {
        if (response.hasLastEvaluatedKey() && !response.lastEvaluatedKey().isEmpty()) {
            MetaKey last = V2Layout.keyOfItem(response.lastEvaluatedKey(), prefix, table);
            return Optional.of(layout.tokens().encode(prefix, PageCursor.after(shard, prefix, last)));
        }
        if (shard + 1 < layout.shards()) {
            return Optional.of(layout.tokens().encode(prefix, PageCursor.startOf(shard + 1)));
        }
        return Optional.empty();
    }

    /**
     * Lists the prefix before it returns (the initial events), then polls it every poll interval.
     *
     * @throws io.lake.meta.StoreUnavailableException if the prefix could not be listed; nothing registered
     */
    @Override
    public Watch watch(KeyPrefix prefix, WatchListener listener) {
        checkOpen();
        return watches.watch(prefix, listener);
    }

    /** Polls every watch now, on the calling thread: tests check what a poll reports without waiting for one. */
    void pollNow() {
        watches.pollNow();
    }

    Duration pollInterval() {
        return pollInterval;
    }

    @Override
    public void close() {
        closed.set(true);
        watches.close();
    }

    private void checkOpen() {
        if (closed.get()) {
            throw new StoreClosedException(toString());
        }
    }

    private static void notNull(Object value, String name) {
        if (value == null) {
            throw new InvalidArgumentException(name + " must not be null");
        }
    }

    int shards() {
        return layout.shards();
    }

    @Override
    public String toString() {
        return "DynamoMetaStore[table=" + table + ", layout=" + V2Layout.descriptor(layout.shards()) + "]";
    }

}
