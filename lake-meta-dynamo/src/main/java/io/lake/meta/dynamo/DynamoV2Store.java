package io.lake.meta.dynamo;

import io.lake.meta.InvalidArgumentException;
import io.lake.meta.KeyPrefix;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.Mutation;
import io.lake.meta.Page;
import io.lake.meta.PageRequest;
import io.lake.meta.StoreClosedException;
import io.lake.meta.Transaction;
import io.lake.meta.TransactionResult;
import io.lake.meta.WriteResult;
import io.lake.meta.BatchKeys;
import io.lake.meta.spi.PageCursor;
import io.lake.meta.spi.PollingWatcher;
import io.lake.meta.watch.Watch;
import io.lake.meta.watch.WatchListener;
import io.lake.meta.Ticker;
import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;

/**
 * The MetaStore contract over a DynamoDB table in the v2 layout (see {@link V2Layout}).
 *
 * <p>Every write and point read is one DynamoDB request (the SDK may retry it): a consistent
 * GetItem, one conditional PutItem or DeleteItem, one TransactWriteItems; a page is one consistent
 * Query per shard it reads ({@link ShardedPageReader}). The
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
    private final ShardedPageReader pages;
    private final Duration pollInterval;
    private final PollingWatcher watches;
    private final AtomicBoolean closed = new AtomicBoolean();

    DynamoV2Store(DynamoDbClient client, String table, V2Layout layout, Duration pollInterval) {
        this(client, table, layout, pollInterval, Ticker.system());
    }

    DynamoV2Store(DynamoDbClient client, String table, V2Layout layout, Duration pollInterval, Ticker ticker) {
        this.client = client;
        this.table = table;
        this.layout = layout;
        this.singleWrites = new SingleItemWrite(client, table, layout);
        this.transactions = new TransactWrite(client, table, layout, ticker);
        this.batchReads = new BatchRead(client, table, layout);
        this.pages = new ShardedPageReader(client, table, layout);
        this.pollInterval = pollInterval;
        this.watches = new PollingWatcher(new TableGoneEndsWatches(this, toString(), this::endWatches), pollInterval,
                toString());
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

    /** One caller page, shard after shard of the prefix's family: see {@link ShardedPageReader}. */
    @Override
    public Page page(PageRequest request) {
        checkOpen();
        notNull(request, "page request");
        KeyPrefix prefix = request.prefix();
        PageCursor cursor = request.token()
                .map(token -> layout.tokens().decode(prefix, token))
                .orElse(PageCursor.startOf(0));
        return pages.read(prefix, cursor, request.limit());
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
        try {
            watches.pollNow();
        } catch (StoreClosedException e) {
            // as a scheduled poll does: the store closed, or its table was deleted; the watches ended
        }
    }

    Duration pollInterval() {
        return pollInterval;
    }

    /** Its table was deleted: the watches end (the store's other calls keep reporting the missing table). */
    private void endWatches() {
        watches.close();
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
