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
 * The MetaStore contract over a legacy table in the v1 layout (see {@link V1Layout}), mode
 * {@link DynamoLayoutMode#V1}.
 *
 * <p>Point reads, writes and transactions cost what they cost on v2: a consistent GetItem, one
 * conditional PutItem or DeleteItem, one TransactWriteItems (guarded mutations included), batched
 * consistent BatchGetItem. Pages are the exception: a filtered Scan (see {@link ScanPages}).
 * Thread-safe; the client is shared and never closed here.
 */
final class DynamoV1Store implements MetaStore {

    private final DynamoDbClient client;
    private final String table;
    private final SingleItemWrite singleWrites;
    private final TransactWrite transactions;
    private final BatchRead batchReads;
    private final ScanPages pages;
    private final PollingWatcher watches;
    private final AtomicBoolean closed = new AtomicBoolean();

    DynamoV1Store(DynamoDbClient client, String table, Duration pollInterval, Ticker ticker) {
        this.client = client;
        this.table = table;
        this.singleWrites = new SingleItemWrite(client, table, V1Layout.INSTANCE);
        this.transactions = new TransactWrite(client, table, V1Layout.INSTANCE, ticker);
        this.batchReads = new BatchRead(client, table, V1Layout.INSTANCE);
        this.pages = new ScanPages(client, table);
        this.watches = new PollingWatcher(new TableGoneEndsWatches(this, toString(), this::endWatches), pollInterval,
                toString());
    }

    @Override
    public Optional<MetaValue> get(MetaKey key) {
        checkOpen();
        notNull(key, "key");
        GetItemResponse response;
        try {
            response = client.getItem(r -> r.tableName(table).key(V1Layout.INSTANCE.keyOf(key)).consistentRead(true));
        } catch (SdkException e) {
            throw Failures.onRead("GetItem of '" + key + "'", e, table);
        }
        if (!response.hasItem() || response.item().isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(V1Layout.INSTANCE.valueIn(response.item(), table));
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
        return pages.page(request);
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

    /** Polls through this store's own pages: each poll scans the legacy table (see {@link #page}). */
    @Override
    public Watch watch(KeyPrefix prefix, WatchListener listener) {
        checkOpen();
        return watches.watch(prefix, listener);
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
        return "DynamoMetaStore[table=" + table + ", layout=" + V1Layout.DESCRIPTOR + "]";
    }
}
