package io.lake.meta.rocks;

import io.lake.meta.BatchKeys;
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
import io.lake.meta.StoreUnavailableException;
import io.lake.meta.Transaction;
import io.lake.meta.TransactionResult;
import io.lake.meta.WriteResult;
import io.lake.meta.spi.KeyFamilies;
import io.lake.meta.spi.PageCursor;
import io.lake.meta.spi.PageTokenCodec;
import io.lake.meta.spi.RaceHooks;
import io.lake.meta.spi.WatchRegistry;
import io.lake.meta.watch.Watch;
import io.lake.meta.watch.WatchListener;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Slice;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The RocksDB {@link MetaStore}. Thread-safe.
 *
 * <p>Writes go through the {@link WriteGroup}: the first waiting writer checks and writes the
 * commits of all concurrent writers in a shared batch, on its own thread, and hands each written
 * batch to the watches. Reads go straight to RocksDB and never wait for a commit.
 *
 * <p>Every call passes a {@link CallGate} while it uses native handles; {@link #close()} first
 * refuses new calls, then waits for the calls in flight, and frees the handles only when nothing
 * can touch them any more.
 */
final class RocksStore implements MetaStore, KeyFamilies {

    private static final Logger LOG = LoggerFactory.getLogger(RocksStore.class);

    /** Layout of page tokens; change the format number whenever a position's meaning changes. */
    static final String TOKEN_LAYOUT = "rocksdb/format=" + StoreFormat.VERSION;

    private final Path directory;
    private final String description;
    private final RaceHooks hooks;
    private final Durability durability;
    private final DatabaseOptions options;
    private final RocksDB db;
    private final WriteOptions writeOptions;
    private final ReadOptions pointReads;
    private final PageTokenCodec tokens = new PageTokenCodec(TOKEN_LAYOUT, 1);

    private final CallGate calls = new CallGate();
    private final Object closeMonitor = new Object();
    private boolean closed;

    private final WatchRegistry watches;
    private final BatchCommit batches;
    private final WriteGroup writeGroup;

    RocksStore(
            Path directory,
            Durability durability,
            WaitingWriters waiting,
            RaceHooks hooks,
            DatabaseOptions options,
            RocksDB db,
            UnaryOperator<BatchCommit.BatchWriter> writerDecorator) {
        this.directory = directory;
        this.description = "RocksDB store at " + directory;
        this.durability = durability;
        this.hooks = hooks;
        this.options = options;
        this.db = db;
        this.writeOptions = new WriteOptions().setSync(durability == Durability.SYNCED_WAL);
        this.pointReads = new ReadOptions();
        this.watches = new WatchRegistry(description);
        SpanReads spanReads = new SpanReads(db, this::readAll);
        this.batches = new BatchCommit(
                new Commit.View() {
                    @Override
                    public Optional<MetaValue> current(MetaKey key) throws RocksDBException {
                        return read(key);
                    }

                    @Override
                    public List<Optional<MetaValue>> currentAll(List<MetaKey> keys) throws RocksDBException {
                        return spanReads.readAll(
                                keys); // a bulk transaction's fresh keys: one seek, not one search each
                    }
                },
                RocksStore::stage,
                writerDecorator.apply(batch -> db.write(writeOptions, batch)),
                hooks,
                BatchCommit.ChangePublisher.of(watches),
                description);
        this.writeGroup =
                new WriteGroup(batches, hooks, waiting, description, "lake-meta-rocks-committer[" + directory + "]");
        writeGroup.start();
    }

    @Override
    public Optional<MetaValue> get(MetaKey key) {
        return whileOpen(() -> {
            requireArgument(key, "key");
            hooks.reached(RacePoints.READ_STARTED);
            try {
                return read(key);
            } catch (RocksDBException e) {
                throw unavailable("could not read " + key, e);
            }
        });
    }

    /** One {@code multiGet}: RocksDB looks the keys up together, each at its latest committed value. */
    @Override
    public Map<MetaKey, MetaValue> getAll(Collection<MetaKey> keys) {
        return whileOpen(() -> {
            List<MetaKey> batch = BatchKeys.requireValid(keys);
            if (batch.isEmpty()) {
                return Map.of(); // RocksDB's multiGet refuses an empty key list
            }
            hooks.reached(RacePoints.READ_STARTED);
            List<Optional<MetaValue>> values;
            try {
                values = readAll(batch);
            } catch (RocksDBException e) {
                throw unavailable("could not read " + batch.size() + " keys", e);
            }
            Map<MetaKey, MetaValue> found = new LinkedHashMap<>();
            for (int i = 0; i < batch.size(); i++) {
                MetaKey key = batch.get(i);
                values.get(i).ifPresent(value -> found.put(key, value));
            }
            return Collections.unmodifiableMap(found);
        });
    }

    @Override
    public WriteResult apply(Mutation mutation) {
        return whileOpen(() ->
                commit(Commit.plain(requireArgument(mutation, "mutation"))).writeResult());
    }

    @Override
    public TransactionResult transact(Transaction transaction) {
        return whileOpen(() ->
                commit(Commit.of(requireArgument(transaction, "transaction"))).transactionResult());
    }

    private Commit.Decision commit(Commit commit) {
        return writeGroup.commit(commit);
    }

    static void stage(WriteBatch batch, Mutation mutation) throws RocksDBException {
        Optional<MetaValue> value = mutation.newValue();
        if (value.isPresent()) {
            batch.put(mutation.key().utf8(), value.get().toByteArray());
        } else {
            batch.delete(mutation.key().utf8());
        }
    }

    private Optional<MetaValue> read(MetaKey key) throws RocksDBException {
        return valueOf(db.get(pointReads, key.utf8()));
    }

    /** One {@code multiGet}, for {@link #getAll} and the group commit's checks: what each key holds, in order. */
    private List<Optional<MetaValue>> readAll(List<MetaKey> keys) throws RocksDBException {
        List<byte[]> values =
                db.multiGetAsList(pointReads, keys.stream().map(MetaKey::utf8).toList());
        List<Optional<MetaValue>> found = new ArrayList<>(values.size());
        for (byte[] value : values) {
            found.add(valueOf(value));
        }
        return found;
    }

    private static Optional<MetaValue> valueOf(byte[] stored) {
        return stored == null ? Optional.empty() : Optional.of(MetaValue.of(stored));
    }

    @Override
    public Page page(PageRequest request) {
        return whileOpen(() -> {
            requireArgument(request, "page request");
            KeyPrefix prefix = request.prefix();
            PageCursor cursor =
                    request.token().map(t -> tokens.decode(prefix, t)).orElse(PageCursor.startOf(0));
            byte[] start =
                    cursor.afterKey(prefix).map(k -> Keys.justAfter(k.utf8())).orElse(prefix.utf8());
            hooks.reached(RacePoints.READ_STARTED);
            return readPage(prefix, start, request.limit());
        });
    }

    /**
     * A page stops once its keys and values reach this many bytes (it always holds at least one
     * entry), so a page of 10 000 large values cannot take gigabytes of heap. The contract allows
     * short pages; DynamoDB stops at 1 MB for the same reason.
     */
    static final long MAX_PAGE_BYTES = 4L << 20;

    private Page readPage(KeyPrefix prefix, byte[] start, int limit) {
        try (Slice upperBound = new Slice(Keys.successor(prefix.utf8()));
                ReadOptions readOptions = new ReadOptions().setIterateUpperBound(upperBound);
                RocksIterator it = db.newIterator(readOptions)) {
            List<Entry> entries = new ArrayList<>(Math.min(limit, 1024));
            IteratorCopies copies = new IteratorCopies();
            long itemsRead = 0;
            long bytes = 0;
            it.seek(start);
            while (entries.size() < limit && bytes < MAX_PAGE_BYTES && it.isValid()) {
                itemsRead++;
                byte[] key = copies.key(it);
                byte[] value = copies.value(it);
                bytes += key.length + value.length;
                entries.add(entry(key, value));
                it.next();
            }
            boolean more = false;
            if (it.isValid()) {
                itemsRead++;
                more = true;
            }
            it.status();
            Optional<String> next = more
                    ? Optional.of(tokens.encode(
                            prefix,
                            PageCursor.after(
                                    0, prefix, entries.get(entries.size() - 1).key())))
                    : Optional.empty();
            return new Page(entries, next, PageCost.items(itemsRead));
        } catch (RocksDBException e) {
            throw unavailable("could not read a page of " + prefix, e);
        }
    }

    private Entry entry(byte[] key, byte[] value) {
        try {
            return Entry.adopting(key, value); // the copied arrays are fresh and go nowhere else
        } catch (InvalidArgumentException e) {
            throw new StoreUnavailableException(
                    description + " holds an entry that is not a valid lake-meta entry (" + e.getMessage()
                            + "); the store is corrupt or was written by another program",
                    e);
        }
    }

    /** The families by skip scan: one seek per family ({@link FamilyScan}). */
    @Override
    public List<String> families() {
        return whileOpen(() -> {
            try {
                return FamilyScan.families(db, description);
            } catch (RocksDBException e) {
                throw unavailable("could not list the key families", e);
            }
        });
    }

    /**
     * Registers the watch, then reads the prefix's contents through {@link #page} (a commit the
     * read misses was written after the registration, so the committer publishes it to the watch).
     */
    @Override
    public Watch watch(KeyPrefix prefix, WatchListener listener) {
        return whileOpen(() -> watches.watch(this, prefix, listener));
    }

    /**
     * Refuses new calls, waits for the calls in flight to finish, then frees every native handle.
     * Idempotent: later calls return at once; concurrent calls return once the first has closed.
     */
    @Override
    public void close() {
        synchronized (closeMonitor) {
            if (closed) {
                return;
            }
            calls.refuseNewCalls();
            RuntimeException hookFailure = null;
            Error hookError = null;
            try {
                hooks.reached(RacePoints.CLOSE_DRAINING);
            } catch (RuntimeException e) { // a throwing race hook fails this close, after it closed all the same
                hookFailure = e;
            } catch (Error e) {
                hookError = e;
            }
            calls.awaitDrained();
            writeGroup.stop();
            watches.close();
            closeNative();
            closed = true;
            LOG.info("closed {}", description);
            if (hookFailure != null) {
                throw hookFailure;
            }
            if (hookError != null) {
                throw hookError;
            }
        }
    }

    private void closeNative() {
        if (durability == Durability.UNSYNCED_WAL) {
            try {
                db.syncWal();
            } catch (RocksDBException e) {
                LOG.warn(
                        "could not sync the write-ahead log of {} on close; the last writes may not survive a power loss",
                        description,
                        e);
            }
        }
        try {
            db.closeE();
        } catch (RocksDBException e) {
            LOG.warn("closing {} reported an error", description, e);
        }
        pointReads.close();
        writeOptions.close();
        options.close();
    }

    private <T> T whileOpen(Supplier<T> call) {
        int slot = calls.enter();
        if (slot == CallGate.REFUSED) {
            throw new StoreClosedException(description);
        }
        try {
            return call.get();
        } finally {
            calls.leave(slot);
        }
    }

    private static <T> T requireArgument(T value, String name) {
        if (value == null) {
            throw new InvalidArgumentException(name + " must not be null");
        }
        return value;
    }

    private StoreUnavailableException unavailable(String what, RocksDBException e) {
        return new StoreUnavailableException(description + ": " + what + ": " + e.getMessage(), e);
    }

    Path directory() {
        return directory;
    }

    /** Batches the committer wrote (batches of only conflicts and rejections write nothing). */
    long batchesWritten() {
        return batches.batchesWritten();
    }

    /** Commits the committer answered, applied or not. */
    long commitsAnswered() {
        return writeGroup.commitsAnswered();
    }

    /** Whether acknowledged writes were fsynced to the WAL (read from the native options). */
    boolean syncsWrites() {
        return writeOptions.sync();
    }

    /** Whether writes go to the WAL at all (read from the native options). */
    boolean writesWal() {
        return !writeOptions.disableWAL();
    }

    @Override
    public String toString() {
        return description;
    }
}
