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
import io.lake.meta.watch.Watch;
import io.lake.meta.watch.WatchListener;
import io.lake.meta.lease.Ticker;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * Mode {@link DynamoLayoutMode#DUAL}: reads from the authority copy (the legacy table before the
 * migration is finalized, the v2 table after), writes both copies in one transaction
 * ({@link DualTransactWrite}). Single-key writes too are a transaction here, so each costs one
 * {@code TransactWriteItems} of three items. Thread-safe; the client is shared and never closed.
 *
 * <p>Once the operator declared the rollback horizon passed, the legacy table is no longer kept:
 * a store opened after that writes the v2 table alone, as mode V2 does; a store running from
 * before learns it when a write meets a legacy copy that a V2 store left behind (a divergence),
 * reads the marker again, and from then on writes the v2 table alone too.
 */
final class DynamoDualStore implements MetaStore {

    private final String legacyTable;
    private final String table;
    private final V2Layout layout;
    private final DualAuthority authority;
    private final MetaStore reads;
    private final DualTransactWrite writes;
    private final MigrationState migration;
    private final AtomicBoolean legacyRetired;
    private final AtomicBoolean closed = new AtomicBoolean();

    DynamoDualStore(DynamoDbClient client, String legacyTable, String table, V2Layout layout, DualAuthority authority,
            boolean legacyRetired, Duration pollInterval, Ticker ticker) {
        this.legacyTable = legacyTable;
        this.table = table;
        this.layout = layout;
        this.authority = authority;
        this.migration = new MigrationState(client, legacyTable, table, ticker);
        this.legacyRetired = new AtomicBoolean(legacyRetired);
        DualTransactWrite.Copy v1 = new DualTransactWrite.Copy(legacyTable, V1Layout.INSTANCE);
        DualTransactWrite.Copy v2 = new DualTransactWrite.Copy(table, layout);
        if (authority == DualAuthority.V1) {
            this.reads = new DynamoV1Store(client, legacyTable, pollInterval, ticker);
            this.writes = new DualTransactWrite(client, v1, v2, v2, ticker);
        } else {
            this.reads = new DynamoV2Store(client, table, layout, pollInterval, ticker);
            this.writes = new DualTransactWrite(client, v2, v1, v2, ticker);
        }
    }

    @Override
    public Optional<MetaValue> get(MetaKey key) {
        checkOpen();
        return reads.get(key);
    }

    @Override
    public Map<MetaKey, MetaValue> getAll(Collection<MetaKey> keys) {
        checkOpen();
        return reads.getAll(keys);
    }

    @Override
    public WriteResult apply(Mutation mutation) {
        checkOpen();
        notNull(mutation, "mutation");
        if (legacyRetired.get()) {
            return reads.apply(mutation);
        }
        TransactionResult result = write(Transaction.of(List.of(), List.of(mutation)));
        return result.isApplied() ? WriteResult.applied() : result.failures().get(0).asWriteResult();
    }

    @Override
    public TransactionResult transact(Transaction transaction) {
        checkOpen();
        notNull(transaction, "transaction");
        transaction.requireAtMostKeys(maxTransactionKeys(), toString());
        transaction.requireAtMostBytes(maxTransactionBytes(), toString());
        return write(transaction);
    }

    private TransactionResult write(Transaction transaction) {
        if (legacyRetired.get()) {
            return reads.transact(transaction);
        }
        try {
            return writes.run(transaction);
        } catch (CopiesDivergedException e) {
            if (authority == DualAuthority.V2 && migration.completion().map(MigrationStatus.Completion::rollbackHorizonPassed)
                    .orElse(false)) {
                legacyRetired.set(true); // nothing was written: the same call, on the v2 table alone
                return reads.transact(transaction);
            }
            throw e;
        }
    }

    /** Each mutated key is two items (one per copy) and the barrier check one more: 2 × 49 + 1 = 99. */
    @Override
    public int maxTransactionKeys() {
        return DualTransactWrite.MAX_KEYS;
    }

    /** Half the contract's: every value is sent twice (one per copy), and DynamoDB takes at most 4 MB per transaction. */
    @Override
    public int maxTransactionBytes() {
        return DualTransactWrite.MAX_BYTES;
    }

    @Override
    public Page page(PageRequest request) {
        checkOpen();
        return reads.page(request);
    }

    /** Polls the authority copy, whose store owns the watches (closing this store ends them). */
    @Override
    public Watch watch(KeyPrefix prefix, WatchListener listener) {
        checkOpen();
        return reads.watch(prefix, listener);
    }

    @Override
    public void close() {
        closed.set(true);
        reads.close();
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

    DualAuthority authority() {
        return authority;
    }

    @Override
    public String toString() {
        return "DynamoMetaStore[mode=DUAL, authority=" + authority + (legacyRetired.get() ? " (legacy table retired)" : "")
                + ", legacyTable=" + legacyTable + ", table=" + table
                + ", layout=" + (authority == DualAuthority.V1 ? V1Layout.DESCRIPTOR : V2Layout.descriptor(layout.shards())) + "]";
    }
}
