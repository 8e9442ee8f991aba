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
import io.lake.meta.ReadOnlyStoreException;
import io.lake.meta.StoreClosedException;
import io.lake.meta.StoreUnavailableException;
import io.lake.meta.Transaction;
import io.lake.meta.TransactionResult;
import io.lake.meta.WriteResult;
import io.lake.meta.spi.KeyFamilies;
import io.lake.meta.spi.PageCursor;
import io.lake.meta.spi.PageTokenCodec;
import io.lake.meta.spi.PollingWatcher;
import io.lake.meta.spi.RaceHooks;
import io.lake.meta.watch.Watch;
import io.lake.meta.watch.WatchListener;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Slice;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A read-only view of a store directory that another process (or another open store) may hold:
 * a RocksDB secondary instance. It takes no lock and writes nothing into the store's directory
 * (its own files go to a scratch directory, deleted on close); before every read it catches up
 * with what the primary has written to its write-ahead log and MANIFEST, so a read sees every
 * write the primary committed before the read began. Watches poll: each poll catches up and
 * lists the prefix. Writes fail with {@link ReadOnlyStoreException}.
 */
final class SecondaryStore implements MetaStore, KeyFamilies {

    private static final Logger LOG = LoggerFactory.getLogger(SecondaryStore.class);

    private static final String IDENTITY = "IDENTITY";

    private final Path directory;
    private final Path scratch;
    private final String description;
    private final DatabaseOptions options;
    private final RocksDB db;
    /** The IDENTITY file RocksDB wrote when the database was created: another database has another. */
    private final byte[] identity;

    private final PageTokenCodec tokens = new PageTokenCodec(RocksStore.TOKEN_LAYOUT, 1);
    private final PollingWatcher watches;
    /** Reads share it; close takes it alone, so the database is never closed under a read. */
    private final ReadWriteLock open = new ReentrantReadWriteLock();

    private boolean closed; // guarded by open

    private SecondaryStore(
            Path directory, Path scratch, DatabaseOptions options, RocksDB db, byte[] identity, Duration pollInterval) {
        this.directory = directory;
        this.identity = identity;
        this.scratch = scratch;
        this.options = options;
        this.db = db;
        this.description = "RocksDbMetaStore[" + directory + ", read-only]";
        this.watches = new PollingWatcher(this, pollInterval, description);
    }

    /**
     * Opens the read-only view of the store in {@code directory}.
     *
     * @throws InvalidArgumentException when the directory holds no readable lake-meta store
     * @throws StoreUnavailableException when RocksDB could not open or read it
     */
    static MetaStore open(Path directory, Duration pollInterval) {
        RocksDB.loadLibrary();
        requireStoreDirectory(directory);
        DatabaseOptions options = DatabaseOptions.create(false);
        options.options().setMaxOpenFiles(-1); // what a secondary instance requires
        Path scratch = null;
        RocksDB db = null;
        try {
            scratch = Files.createTempDirectory("lake-meta-secondary-");
            // A secondary instance writes nothing into the directory, so it opens first and the
            // format is checked on what it reads (a writable open inspects read-only first instead).
            StoreFormat.checkColumnFamilies(
                    RocksDB.listColumnFamilies(options.options(), directory.toString()), directory);
            byte[] identity = identityOf(directory);
            db = RocksDB.openAsSecondary(options.options(), directory.toString(), scratch.toString());
            if (!StoreFormat.markerPresent(db, directory)) {
                // build() adopts an empty database as a new store and writes its marker; a view cannot
                throw StoreFormat.notOurs(
                        directory,
                        "it holds an empty RocksDB database without a lake-meta"
                                + " format marker (a store that build() is creating has one once build() returns)");
            }
            requireSameDatabase(directory, identity);
            SecondaryStore store = new SecondaryStore(directory, scratch, options, db, identity, pollInterval);
            LOG.debug("opened {}", store);
            return store;
        } catch (IOException e) {
            closeQuietly(db);
            options.close();
            deleteQuietly(scratch);
            throw new StoreUnavailableException("could not open the read-only view of " + directory + ": " + e, e);
        } catch (RocksDBException e) {
            closeQuietly(db);
            deleteQuietly(scratch);
            try {
                // says which: a damaged or foreign directory (InvalidArgumentException), or one in flux
                ReadOnlyInspection.refuseUnlessLakeMetaStore(directory, options.options(), RaceHooks.NONE);
            } finally {
                options.close();
            }
            throw new StoreUnavailableException(
                    "could not open store directory " + directory + " read-only: " + e.getMessage(), e);
        } catch (RuntimeException | Error e) {
            closeQuietly(db);
            options.close();
            deleteQuietly(scratch);
            throw e;
        }
    }

    private static void closeQuietly(@Nullable RocksDB db) {
        if (db != null) {
            db.close();
        }
    }

    private static void requireStoreDirectory(Path directory) {
        if (!Files.isDirectory(directory)) {
            throw new InvalidArgumentException("store directory " + directory + " does not exist or is not a"
                    + " directory: a read-only view opens an existing store; check the path");
        }
        if (!Files.exists(directory.resolve("CURRENT"))) {
            throw new InvalidArgumentException(directory + " holds no store (no RocksDB database): a read-only view"
                    + " opens an existing store; check the path");
        }
    }

    @Override
    public Optional<MetaValue> get(MetaKey key) {
        requireArgument(key, "key");
        return reading("could not read " + key, () -> valueOf(db.get(key.utf8())));
    }

    @Override
    public Map<MetaKey, MetaValue> getAll(Collection<MetaKey> keys) {
        List<MetaKey> batch = BatchKeys.requireValid(keys);
        if (batch.isEmpty()) {
            return Map.of();
        }
        return reading("could not read " + batch.size() + " keys", () -> {
            List<byte[]> values =
                    db.multiGetAsList(batch.stream().map(MetaKey::utf8).toList());
            Map<MetaKey, MetaValue> found = new LinkedHashMap<>();
            for (int i = 0; i < batch.size(); i++) {
                MetaKey key = batch.get(i);
                valueOf(values.get(i)).ifPresent(value -> found.put(key, value));
            }
            return Collections.unmodifiableMap(found);
        });
    }

    @Override
    public Page page(PageRequest request) {
        requireArgument(request, "page request");
        KeyPrefix prefix = request.prefix();
        PageCursor cursor = request.token().map(t -> tokens.decode(prefix, t)).orElse(PageCursor.startOf(0));
        byte[] start =
                cursor.afterKey(prefix).map(k -> Keys.justAfter(k.utf8())).orElse(prefix.utf8());
        return reading("could not read a page of " + prefix, () -> readPage(prefix, start, request.limit()));
    }

    /** The families by skip scan, after catching up with the primary ({@link FamilyScan}). */
    @Override
    public List<String> families() {
        return reading("could not list the key families", () -> FamilyScan.families(db, description));
    }

    private Page readPage(KeyPrefix prefix, byte[] start, int limit) throws RocksDBException {
        try (Slice upperBound = new Slice(Keys.successor(prefix.utf8()));
                ReadOptions readOptions = new ReadOptions().setIterateUpperBound(upperBound);
                RocksIterator it = db.newIterator(readOptions)) {
            List<Entry> entries = new ArrayList<>(Math.min(limit, 1024));
            IteratorCopies copies = new IteratorCopies();
            long itemsRead = 0;
            long bytes = 0;
            it.seek(start);
            while (entries.size() < limit && bytes < RocksStore.MAX_PAGE_BYTES && it.isValid()) {
                itemsRead++;
                byte[] key = copies.key(it);
                byte[] value = copies.value(it);
                bytes += key.length + value.length;
                entries.add(entry(key, value));
                it.next();
            }
            boolean more = it.isValid();
            if (more) {
                itemsRead++;
            }
            it.status();
            Optional<String> next = more
                    ? Optional.of(tokens.encode(
                            prefix,
                            PageCursor.after(
                                    0, prefix, entries.get(entries.size() - 1).key())))
                    : Optional.empty();
            return new Page(entries, next, PageCost.items(itemsRead));
        }
    }

    private Entry entry(byte[] key, byte[] value) {
        try {
            return Entry.adopting(key, value);
        } catch (InvalidArgumentException e) {
            throw new StoreUnavailableException(
                    description + " holds an entry that is not a valid lake-meta entry (" + e.getMessage()
                            + "); the store is corrupt or was written by another program",
                    e);
        }
    }

    /** Polls: every poll catches up with the primary and lists the prefix. */
    @Override
    public Watch watch(KeyPrefix prefix, WatchListener listener) {
        checkOpen();
        return watches.watch(prefix, listener);
    }

    /** Polls every watch now, on the calling thread: tests check what a poll reports without waiting for one. */
    void pollNow() {
        watches.pollNow();
    }

    @Override
    public WriteResult apply(Mutation mutation) {
        requireArgument(mutation, "mutation");
        checkOpen();
        throw new ReadOnlyStoreException(description);
    }

    @Override
    public TransactionResult transact(Transaction transaction) {
        requireArgument(transaction, "transaction");
        checkOpen();
        throw new ReadOnlyStoreException(description);
    }

    @Override
    public void close() {
        watches.close();
        open.writeLock().lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            db.close();
            options.close();
        } finally {
            open.writeLock().unlock();
        }
        deleteQuietly(scratch);
        LOG.debug("closed {}", this);
    }

    @Override
    public String toString() {
        return description;
    }

    private interface Read<T> {
        T run() throws RocksDBException;
    }

    /** Catches up with the primary, then reads, while the view is open. */
    private <T> T reading(String what, Read<T> read) {
        open.readLock().lock();
        try {
            if (closed) {
                throw new StoreClosedException(description);
            }
            db.tryCatchUpWithPrimary();
            requireSameDatabase(directory, identity);
            return read.run();
        } catch (RocksDBException e) {
            throw new StoreUnavailableException(description + ": " + what + ": " + e.getMessage(), e);
        } finally {
            open.readLock().unlock();
        }
    }

    /**
     * A secondary instance keeps the files it opened: when the directory is deleted, or replaced by
     * another database (a restore from a backup), catching up finds nothing new and the view would
     * go on answering from the database that is gone.
     */
    private static byte[] identityOf(Path directory) throws IOException {
        try {
            return Files.readAllBytes(directory.resolve(IDENTITY));
        } catch (NoSuchFileException e) {
            throw new InvalidArgumentException(directory + " does not hold a readable lake-meta store: it has no"
                    + " RocksDB IDENTITY file; point the view at the store's own directory");
        }
    }

    private static void requireSameDatabase(Path directory, byte[] identity) {
        byte[] now;
        try {
            now = Files.readAllBytes(directory.resolve(IDENTITY));
        } catch (IOException e) {
            throw replaced(directory, e.toString(), e);
        }
        if (!Arrays.equals(now, identity)) {
            throw replaced(directory, "its RocksDB IDENTITY changed", null);
        }
    }

    private static StoreUnavailableException replaced(Path directory, String why, @Nullable Throwable cause) {
        return new StoreUnavailableException(
                "the store this read-only view opened in " + directory + " is gone or was replaced (" + why
                        + "): close the view and open it again",
                cause);
    }

    private void checkOpen() {
        open.readLock().lock();
        try {
            if (closed) {
                throw new StoreClosedException(description);
            }
        } finally {
            open.readLock().unlock();
        }
    }

    private static Optional<MetaValue> valueOf(byte[] stored) {
        return stored == null ? Optional.empty() : Optional.of(MetaValue.of(stored));
    }

    private static <T> T requireArgument(T value, String name) {
        if (value == null) {
            throw new InvalidArgumentException(name + " must not be null");
        }
        return value;
    }

    private static void deleteQuietly(@Nullable Path dir) {
        if (dir == null) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (IOException e) {
            LOG.warn("could not delete the read-only view's scratch directory {}: {}", dir, e.toString());
        }
    }
}
