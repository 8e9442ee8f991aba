package io.lake.meta.dynamo;

import io.lake.meta.BatchKeys;
import io.lake.meta.InvalidArgumentException;
import io.lake.meta.KeyPrefix;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.Mutation;
import io.lake.meta.Page;
import io.lake.meta.PageRequest;
import io.lake.meta.StoreClosedException;
import io.lake.meta.Ticker;
import io.lake.meta.Transaction;
import io.lake.meta.TransactionResult;
import io.lake.meta.WriteResult;
import io.lake.meta.spi.KeyFamilies;
import io.lake.meta.spi.PollingWatcher;
import io.lake.meta.watch.Watch;
import io.lake.meta.watch.WatchListener;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;

/**
 * The MetaStore contract over one DynamoDB table in one layout: the v2 layout ({@link V2Layout},
 * modes {@link DynamoLayoutMode#V2} and, for its v2 copy, {@code DUAL}) or the legacy v1 layout
 * ({@link V1Layout}, mode {@link DynamoLayoutMode#V1} and the legacy copy of {@code DUAL}).
 *
 * <p>Every write and point read is one DynamoDB request (the SDK may retry it): a consistent
 * GetItem, one conditional PutItem or DeleteItem, one TransactWriteItems (guarded mutations
 * included), batched consistent BatchGetItem. The preconditions are checked and the write applied
 * inside DynamoDB, atomically; there is no client-side lock. Pages are the layout's
 * ({@link ItemLayout#pageReader}): in v2 one consistent Query per shard it reads
 * ({@link ShardedPageReader}); in v1 a filtered Scan ({@link ScanPages}), the documented exception
 * to bounded page cost. Writes from other processes land in the same table, so watches cannot hear
 * commits: a {@link PollingWatcher} lists each watched prefix through {@link #page} once per poll
 * interval. {@link #families()} scans the whole table ({@link TableFamilies}). Thread-safe; the
 * client is shared and never closed here.
 */
final class DynamoTableStore implements MetaStore, KeyFamilies {

    private final DynamoDbClient client;
    private final String table;
    private final ItemLayout layout;
    private final SingleItemWrite singleWrites;
    private final TransactWrite transactions;
    private final BatchRead batchReads;
    private final PageReader pages;
    private final TableFamilies families;
    private final Duration pollInterval;
    private final PollingWatcher watches;
    private final AtomicBoolean closed = new AtomicBoolean();

    DynamoTableStore(DynamoDbClient client, String table, ItemLayout layout, Duration pollInterval) {
        this(client, table, layout, pollInterval, Ticker.system());
    }

    DynamoTableStore(DynamoDbClient client, String table, ItemLayout layout, Duration pollInterval, Ticker ticker) {
        this.client = client;
        this.table = table;
        this.layout = layout;
        this.singleWrites = new SingleItemWrite(client, table, layout);
        this.transactions = new TransactWrite(client, table, layout, ticker);
        this.batchReads = new BatchRead(client, table, layout);
        this.pages = layout.pageReader(client, table);
        this.families = new TableFamilies(client, table, layout);
        this.pollInterval = pollInterval;
        this.watches = new PollingWatcher(
                new TableGoneEndsWatches(this, toString(), this::endWatches), pollInterval, toString());
    }

    @Override
    public Optional<MetaValue> get(MetaKey key) {
        checkOpen();
        notNull(key, "key");
        GetItemResponse response;
        try {
            response = client.getItem(
                    r -> r.tableName(table).key(layout.keyOf(key)).consistentRead(true));
        } catch (SdkException e) {
            throw Failures.onRead("GetItem of '" + key + "'", e, table);
        }
        if (!response.hasItem() || response.item().isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(layout.valueIn(response.item(), table));
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

    /** One caller page, as the layout reads it: see {@link ShardedPageReader} and {@link ScanPages}. */
    @Override
    public Page page(PageRequest request) {
        checkOpen();
        notNull(request, "page request");
        return pages.page(request);
    }

    /**
     * The families the table holds: one strongly consistent Scan of the whole table, page after
     * page, each item's hash key alone returned. It reads every item, so it costs read capacity in
     * proportion to the table's size (see {@link TableFamilies}).
     */
    @Override
    public List<String> families() {
        checkOpen();
        return families.list(toString());
    }

    /**
     * Lists the prefix before it returns (the initial events), then polls it every poll interval
     * (in v1, each poll scans the table).
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

    ItemLayout layout() {
        return layout;
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

    @Override
    public String toString() {
        return "DynamoMetaStore[table=" + table + ", layout=" + layout.descriptor() + "]";
    }
}
