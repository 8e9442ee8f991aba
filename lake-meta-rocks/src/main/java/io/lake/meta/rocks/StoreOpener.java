package io.lake.meta.rocks;

import io.lake.meta.InvalidArgumentException;
import io.lake.meta.StoreUnavailableException;
import io.lake.meta.spi.RaceHooks;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.Status;
import org.rocksdb.WriteOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens (and, when asked, creates) a store directory, and checks it is a lake-meta store of
 * this format before anything else can use it. An existing database is inspected read-only
 * first ({@link ReadOnlyInspection}), so a refused open leaves the directory as it was.
 *
 * <p>Errors: a directory that does not hold a usable lake-meta store (missing, a file, another
 * program's data, another format version, an unreadable database) is an {@link InvalidArgumentException}: the
 * {@code directory} option is wrong and retrying will not help. A directory held by another
 * process or another open store is a {@link StoreUnavailableException}: retryable, because it
 * opens once the holder closes it. Other I/O failures are unavailable errors too.
 */
final class StoreOpener {

    private static final Logger LOG = LoggerFactory.getLogger(StoreOpener.class);

    /** RocksDB writes this file when it creates a database. */
    private static final String ROCKSDB_CURRENT = "CURRENT";

    private StoreOpener() {}

    /** As below, with the default {@link WaitingWriters#YIELD_THEN_PARK}; for tests. */
    static RocksStore open(
            Path directory,
            Durability durability,
            boolean createIfMissing,
            RaceHooks hooks,
            UnaryOperator<BatchCommit.BatchWriter> writerDecorator) {
        return open(directory, durability, WaitingWriters.YIELD_THEN_PARK, createIfMissing, hooks, writerDecorator);
    }

    /**
     * Opens the store in {@code directory}; {@code writerDecorator} wraps the batch writer (the
     * identity in production, so tests can make writes fail).
     */
    static RocksStore open(
            Path directory,
            Durability durability,
            WaitingWriters waiting,
            boolean createIfMissing,
            RaceHooks hooks,
            UnaryOperator<BatchCommit.BatchWriter> writerDecorator) {
        RocksDB.loadLibrary();
        boolean exists = prepareDirectory(directory, createIfMissing);
        DatabaseOptions options = DatabaseOptions.create(!exists);
        RocksDB db = null;
        try {
            if (exists) {
                // refuse before RocksDB replays, flushes or locks anything
                ReadOnlyInspection.refuseUnlessLakeMetaStore(directory, options.options(), hooks);
            }
            db = RocksDB.open(options.options(), directory.toString());
            // checked again: the directory may have changed since it was inspected
            if (!StoreFormat.markerPresent(db, directory)) {
                writeMarker(db, directory);
            }
            RocksStore store = new RocksStore(directory, durability, waiting, hooks, options, db, writerDecorator);
            LOG.info("opened {} ({})", store, durability);
            return store;
        } catch (RocksDBException e) {
            closeQuietly(db, options);
            throw openFailure(directory, e);
        } catch (RuntimeException | Error e) {
            closeQuietly(db, options);
            throw e;
        }
    }

    /** Checks what the directory holds before RocksDB touches it; returns whether a database exists. */
    private static boolean prepareDirectory(Path directory, boolean createIfMissing) {
        if (Files.exists(directory) && !Files.isDirectory(directory)) {
            throw new InvalidArgumentException(directory + " is not a directory: point the store at a directory");
        }
        if (!Files.exists(directory)) {
            if (!createIfMissing) {
                throw new InvalidArgumentException(
                        "store directory " + directory
                                + " does not exist: check the path, or build with createIfMissing(true) to create a store there");
            }
            try {
                Files.createDirectories(directory);
            } catch (IOException e) {
                throw new StoreUnavailableException("could not create store directory " + directory + ": " + e, e);
            }
            return false;
        }
        if (Files.exists(directory.resolve(ROCKSDB_CURRENT))) {
            return true;
        }
        boolean empty;
        try (Stream<Path> children = Files.list(directory)) {
            empty = children.findAny().isEmpty();
        } catch (IOException e) {
            throw new StoreUnavailableException("could not list store directory " + directory + ": " + e, e);
        }
        if (!empty) {
            throw new InvalidArgumentException(directory + " is not a lake-meta store: it holds other files and no"
                    + " database; point the store at its own directory (an empty or new one to create a store)");
        }
        if (!createIfMissing) {
            throw new InvalidArgumentException(
                    "store directory " + directory
                            + " is empty and holds no store: check the path, or build with createIfMissing(true) to create one");
        }
        return false;
    }

    /** An empty database: new, or created by a process that stopped before writing the marker. */
    private static void writeMarker(RocksDB db, Path directory) throws RocksDBException {
        try (WriteOptions synced = new WriteOptions().setSync(true)) {
            db.put(synced, Keys.FORMAT_MARKER, StoreFormat.marker());
        }
        LOG.info("created lake-meta store (format {}) in {}", StoreFormat.VERSION, directory);
    }

    private static RuntimeException openFailure(Path directory, RocksDBException e) {
        Status status = e.getStatus();
        String message = String.valueOf(e.getMessage());
        if (status != null && status.getCode() == Status.Code.IOError && message.contains("LOCK")) {
            return new StoreUnavailableException(
                    "store directory " + directory
                            + " is in use by another process or by another open store in this process (RocksDB: "
                            + message
                            + "); close the other store first: only one store may open a directory at a time",
                    e);
        }
        if (status != null && status.getCode() == Status.Code.InvalidArgument) {
            return new InvalidArgumentException(directory + " cannot be opened as a lake-meta store: " + message
                    + "; point the store at its own directory");
        }
        return new StoreUnavailableException("could not open store directory " + directory + ": " + message, e);
    }

    private static void closeQuietly(@Nullable RocksDB db, DatabaseOptions options) {
        if (db != null) {
            try {
                db.closeE();
            } catch (RocksDBException e) {
                LOG.warn("closing a store that failed to open reported an error", e);
            }
        }
        options.close();
    }
}
