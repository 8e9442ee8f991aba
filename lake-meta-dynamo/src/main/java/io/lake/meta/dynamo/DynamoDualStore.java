package io.lake.meta.dynamo;

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
import io.lake.meta.StoreUnavailableException;
import io.lake.meta.Ticker;
import io.lake.meta.Transaction;
import io.lake.meta.TransactionResult;
import io.lake.meta.WriteResult;
import io.lake.meta.spi.KeyFamilies;
import io.lake.meta.watch.Watch;
import io.lake.meta.watch.WatchListener;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;

/**
 * Mode {@link DynamoLayoutMode#DUAL}: reads from the authority copy (the legacy table before the
 * migration is finalized, the v2 table after), writes both copies in one transaction
 * ({@link DualTransactWrite}). Single-key writes too are a transaction here, so each costs one
 * {@code TransactWriteItems} of four items. Thread-safe; the client is shared and never closed.
 *
 * <p>Every write proves, inside its transaction, what the store believes about the completion
 * marker ({@link DualTransactWrite.Form}). When the marker changed since (a finalize, a rollback),
 * nothing was written; the store takes the form the marker proves and sends the write again. So
 * a store on the v2 authority whose migration was rolled back switches to the legacy authority
 * (reads included) at its next write, and never writes a copy the legacy table no longer has.
 *
 * <p>Once the operator declared the rollback horizon passed, the legacy table is no longer kept:
 * a store opened after that writes the v2 table alone, as mode V2 does; a store running from
 * before learns it when a write meets a legacy copy that a V2 store left behind (a divergence) or
 * finds the legacy table deleted, reads the marker again, and from then on writes the v2 table
 * alone too.
 */
final class DynamoDualStore implements MetaStore, KeyFamilies {

    /** Form changes one write follows before giving up (each one is a finalize or a rollback meanwhile). */
    private static final int MAX_FORM_CHANGES = 4;

    private final String legacyTable;
    private final String table;
    private final DynamoTableStore legacyStore;
    private final DynamoTableStore v2Store;
    private final DualTransactWrite writes;
    private final MigrationState migration;
    private volatile DualTransactWrite.Form form;
    /** The marker this store's reads of the v2 authority are valid under (see {@link #read}). */
    private volatile @Nullable String markerIdentity;

    private final AtomicBoolean legacyRetired;
    private final AtomicBoolean closed = new AtomicBoolean();

    /**
     * @param marker the completion marker as the store opened (null: none, the legacy authority);
     *     with the horizon passed, the legacy table is retired from the start
     */
    DynamoDualStore(
            DynamoDbClient client,
            String legacyTable,
            String table,
            V2Layout layout,
            MigrationState.@Nullable MarkerSeen marker,
            Duration pollInterval,
            Ticker ticker) {
        this.legacyTable = legacyTable;
        this.table = table;
        this.migration = new MigrationState(client, legacyTable, table, ticker);
        this.legacyRetired = new AtomicBoolean(marker != null && marker.horizonPassed());
        this.form = marker == null ? DualTransactWrite.Form.V1_DERIVED : DualTransactWrite.Form.V2_KEPT;
        this.markerIdentity = marker == null ? null : marker.identity();
        this.legacyStore = new DynamoTableStore(client, legacyTable, V1Layout.INSTANCE, pollInterval, ticker);
        this.v2Store = new DynamoTableStore(client, table, layout, pollInterval, ticker);
        this.writes = new DualTransactWrite(
                client,
                new DualTransactWrite.Copy(legacyTable, V1Layout.INSTANCE),
                new DualTransactWrite.Copy(table, layout),
                ticker);
    }

    /** The store of the authority copy: reads go there. */
    private DynamoTableStore reads() {
        return authority() == DualAuthority.V1 ? legacyStore : v2Store;
    }

    /**
     * One read of the authority copy. On the v2 authority before the horizon, the read is followed
     * by one consistent {@code GetItem} of the completion marker: the same marker (its identity)
     * as before the read proves it was never withdrawn in between, so the v2 copy was the authority
     * when it was read. A marker gone means a rollback: V1 writers may have changed the legacy copy
     * alone since, so the store switches to the legacy authority and reads again; a new marker (a
     * rollback and a finalize since) is read under again. After the horizon no rollback can happen,
     * so the check stops.
     */
    private <T> T read(
            java.util.function.Function<DynamoTableStore, T> operation,
            java.util.function.UnaryOperator<T> addMarkerCost) {
        for (int changes = 0; changes <= MAX_FORM_CHANGES; changes++) {
            if (legacyRetired.get() || form.authority == DualAuthority.V1) {
                return operation.apply(reads());
            }
            String before = markerIdentity;
            T result = operation.apply(v2Store);
            Optional<MigrationState.MarkerSeen> now = migration.markerSeen();
            if (now.isEmpty()) {
                if (form == DualTransactWrite.Form.V2_KEPT) {
                    form = DualTransactWrite.Form.V1_DERIVED; // rolled back: the legacy table is the authority again
                }
            } else if (now.get().identity().equals(before)) {
                if (now.get().horizonPassed()) {
                    legacyRetired.set(true); // no rollback is possible any more: no further check needed
                }
                return addMarkerCost.apply(result);
            } else {
                markerIdentity = now.get().identity(); // finalized again since: read again under the new marker
            }
        }
        throw new StoreUnavailableException("a read of '" + table + "' met a changing completion marker "
                + (MAX_FORM_CHANGES + 1) + " times (rollbacks and finalizes meanwhile); retry with backoff");
    }

    @Override
    public Optional<MetaValue> get(MetaKey key) {
        checkOpen();
        return read(store -> store.get(key), r -> r);
    }

    @Override
    public Map<MetaKey, MetaValue> getAll(Collection<MetaKey> keys) {
        checkOpen();
        return read(store -> store.getAll(keys), r -> r);
    }

    @Override
    public WriteResult apply(Mutation mutation) {
        checkOpen();
        notNull(mutation, "mutation");
        if (legacyRetired.get()) {
            return v2Store.apply(mutation);
        }
        TransactionResult result = write(Transaction.of(List.of(), List.of(mutation)));
        return result.isApplied()
                ? WriteResult.applied()
                : result.failures().get(0).asWriteResult();
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
        for (int changes = 0; changes <= MAX_FORM_CHANGES; changes++) {
            if (legacyRetired.get()) {
                return v2Store.transact(transaction);
            }
            DualTransactWrite.Form current = form;
            try {
                return writes.run(transaction, current);
            } catch (DualTransactWrite.PhaseChanged e) {
                form = e.next; // nothing was written: send it again as the marker says
            } catch (CopiesDivergedException e) {
                if (!retireIfTheHorizonPassed(current)) {
                    throw e;
                }
            } catch (DynamoStoreException e) {
                if (!(e.getCause() instanceof ResourceNotFoundException) || !retireIfTheHorizonPassed(current)) {
                    throw e;
                }
            }
        }
        throw new StoreUnavailableException("a dual write on '" + legacyTable + "' and '" + table + "' met a changing"
                + " completion marker " + (MAX_FORM_CHANGES + 1) + " times (finalizes and rollbacks meanwhile); nothing"
                + " was written; retry with backoff");
    }

    /**
     * A write on the v2 authority met a stale legacy copy or no legacy table: if the horizon was
     * declared, a V2 store (or the operator) may have done that, and the legacy table is no longer
     * kept. Nothing was written, so the caller sends the same write to the v2 table alone.
     */
    private boolean retireIfTheHorizonPassed(DualTransactWrite.Form current) {
        if (current.authority == DualAuthority.V2
                && migration
                        .completion()
                        .map(MigrationStatus.Completion::rollbackHorizonPassed)
                        .orElse(false)) {
            legacyRetired.set(true);
            return true;
        }
        return false;
    }

    /** Each mutated key is two items (one per copy), the marker and the barrier checks two more: 2 × 49 + 2 = 100. */
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
        return read(
                store -> store.page(request),
                page -> new Page(
                        page.entries(),
                        page.nextToken(),
                        new PageCost(
                                page.cost().itemsEvaluated(),
                                page.cost().capacityUnits() + 1.0,
                                page.cost().requests() + 1)));
    }

    /**
     * The families of the authority copy, read as every read is (see {@link #read}): one Scan of
     * the authority's whole table, so read capacity in proportion to its size (see
     * {@link TableFamilies}), and on the v2 authority before the horizon one GetItem of the marker.
     */
    @Override
    public List<String> families() {
        checkOpen();
        return read(DynamoTableStore::families, r -> r);
    }

    /** Polls the authority copy, whose store owns the watches (closing this store ends them). */
    @Override
    public Watch watch(KeyPrefix prefix, WatchListener listener) {
        checkOpen();
        return reads().watch(prefix, listener);
    }

    @Override
    public void close() {
        closed.set(true);
        legacyStore.close();
        v2Store.close();
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
        return legacyRetired.get() ? DualAuthority.V2 : form.authority;
    }

    @Override
    public String toString() {
        DualAuthority authority = authority();
        return "DynamoMetaStore[mode=DUAL, authority=" + authority
                + (legacyRetired.get() ? " (legacy table retired)" : "")
                + ", legacyTable=" + legacyTable + ", table=" + table
                + ", layout="
                + (authority == DualAuthority.V1 ? legacyStore : v2Store)
                        .layout()
                        .descriptor() + "]";
    }
}
