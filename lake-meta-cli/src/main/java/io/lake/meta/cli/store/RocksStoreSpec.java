package io.lake.meta.cli.store;

import io.lake.meta.InvalidArgumentException;
import io.lake.meta.MetaStore;
import io.lake.meta.cli.Directories;
import io.lake.meta.cli.StoreOpenException;
import io.lake.meta.cli.UsageException;
import io.lake.meta.rocks.RocksDbMetaStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.time.Duration;
import picocli.CommandLine.TypeConversionException;

/** {@code rocks:DIR}: an embedded RocksDB store in a local directory. */
public record RocksStoreSpec(Path directory) implements StoreSpec {

    static RocksStoreSpec parse(String location) {
        try {
            return new RocksStoreSpec(Path.of(location));
        } catch (InvalidPathException e) {
            throw new TypeConversionException("'" + location + "' is not a valid directory path: " + e.getReason());
        }
    }

    @Override
    public String text() {
        return "rocks:" + directory;
    }

    /**
     * {@link #text()}. picocli turns the parsed option into a string on every run: a record's
     * generated {@code toString} would cost each start a method-handle bootstrap.
     */
    @Override
    public String toString() {
        return text();
    }

    /** How often {@code watch} on a read-only view catches up with the store's holder and lists the prefix. */
    static final Duration WATCH_POLL_INTERVAL = Duration.ofMillis(200);

    @Override
    public MetaStore open(boolean createIfMissing) {
        return open(createIfMissing, false);
    }

    /** A RocksDB secondary instance: no lock taken, every read catches up with the process holding the store. */
    @Override
    public MetaStore openReadOnly() {
        return open(false, true);
    }

    private MetaStore open(boolean createIfMissing, boolean readOnly) {
        if (Files.exists(directory) && !Files.isDirectory(directory)) {
            throw new UsageException("store path " + directory + " is a file, not a directory:"
                    + " pass the directory of a RocksDB store");
        }
        if (!createIfMissing && isMissingOrEmpty(directory)) {
            throw new UsageException("store directory " + directory
                    + (Files.isDirectory(directory) ? " is empty" : " does not exist")
                    + ": pass the directory of an existing store (put --create-store creates one)");
        }
        try {
            if (readOnly) {
                return RocksDbMetaStore.builder()
                        .directory(directory)
                        .pollInterval(WATCH_POLL_INTERVAL)
                        .buildReadOnly();
            }
            return RocksDbMetaStore.builder()
                    .directory(directory)
                    .createIfMissing(createIfMissing)
                    .build();
        } catch (InvalidArgumentException e) {
            // not a lake-meta store, or empty: the argument is wrong, no retry will help
            throw new UsageException("cannot open RocksDB store in " + directory + ": " + e.getMessage());
        } catch (RuntimeException e) {
            throw new StoreOpenException("cannot open RocksDB store in " + directory + ": " + e.getMessage(), e);
        }
    }

    private static boolean isMissingOrEmpty(Path directory) {
        try {
            return !Files.isDirectory(directory) || Directories.isEmpty(directory);
        } catch (IOException e) {
            return false; // let the store report what it cannot read
        }
    }
}
