package io.lake.meta.cli;

import io.lake.meta.InvalidArgumentException;
import io.lake.meta.MetaStore;
import io.lake.meta.rocks.RocksDbMetaStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import picocli.CommandLine.TypeConversionException;

/** {@code rocks:DIR}: an embedded RocksDB store in a local directory. */
record RocksStoreSpec(Path directory) implements StoreSpec {

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

    @Override
    public MetaStore open(boolean createIfMissing) {
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
