package io.lake.meta.rocks;

import io.lake.meta.InvalidArgumentException;
import io.lake.meta.StoreUnavailableException;
import io.lake.meta.spi.RaceHooks;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.Status;

/**
 * Reads an existing database directory without changing it, and refuses it unless it holds a
 * lake-meta store of this format (or an empty database, which the opener adopts).
 *
 * <p>Opening a directory for writing changes it before anything can be checked: RocksDB replays
 * the write-ahead log into a new table file, writes a new MANIFEST and OPTIONS file and takes
 * the LOCK. Read-only, RocksDB only reads: it replays the log into memory, takes no lock, and
 * writes no file (its info log goes to {@link RocksInfoLog}). So the store checks first.
 *
 * <p>A process that holds the store may rename or delete files while they are read. When the
 * read fails and the directory changed meanwhile, the directory is in use (retryable), not
 * unreadable.
 */
final class ReadOnlyInspection {

    private static final String CURRENT = "CURRENT";

    /** What RocksDB writes to CURRENT: the name of the live MANIFEST and a newline. */
    private static final Pattern CURRENT_CONTENT = Pattern.compile("(MANIFEST-[0-9]+)\n");

    private ReadOnlyInspection() {}

    /**
     * @throws InvalidArgumentException when the directory holds no readable lake-meta store of this format
     * @throws StoreUnavailableException when it could not be read, or changed while it was read
     */
    static void refuseUnlessLakeMetaStore(Path directory, Options options, RaceHooks hooks) {
        Map<String, String> before = fingerprint(directory);
        String manifest = liveManifest(directory)
                .orElseThrow(() -> unreadable(directory, "its CURRENT file does not name a RocksDB MANIFEST"));
        hooks.reached(RacePoints.OPEN_INSPECTING);
        try {
            StoreFormat.checkColumnFamilies(RocksDB.listColumnFamilies(options, directory.toString()), directory);
            try (RocksDB db = RocksDB.openReadOnly(options, directory.toString())) {
                StoreFormat.markerPresent(db, directory);
            }
        } catch (RocksDBException e) {
            throw failure(directory, e, before, manifest);
        }
    }

    private static RuntimeException failure(
            Path directory, RocksDBException e, Map<String, String> before, String manifest) {
        String message = "RocksDB: " + e.getMessage();
        if (!fingerprint(directory).equals(before)) {
            return new StoreUnavailableException(
                    "store directory " + directory + " changed while it was read (" + message
                            + "): another process is using it; retry once it is closed",
                    e);
        }
        Status.Code code =
                e.getStatus() == null ? Status.Code.Undefined : e.getStatus().getCode();
        boolean damaged = switch (code) {
            case Corruption, InvalidArgument, NotSupported -> true;
            default -> !Files.exists(directory.resolve(manifest));
        };
        if (damaged) {
            return unreadable(directory, message);
        }
        return new StoreUnavailableException("could not read store directory " + directory + " (" + message + ")", e);
    }

    private static InvalidArgumentException unreadable(Path directory, String why) {
        return new InvalidArgumentException(directory + " does not hold a readable lake-meta store: " + why
                + "; point the store at its own directory, or restore this one from a backup");
    }

    /** The MANIFEST that CURRENT names, or empty when CURRENT is not what RocksDB writes. */
    private static Optional<String> liveManifest(Path directory) {
        byte[] content;
        try {
            content = Files.readAllBytes(directory.resolve(CURRENT));
        } catch (IOException e) {
            throw new StoreUnavailableException("could not read " + directory.resolve(CURRENT) + ": " + e, e);
        }
        Matcher matcher = CURRENT_CONTENT.matcher(new String(content, StandardCharsets.ISO_8859_1));
        return matcher.matches() ? Optional.of(matcher.group(1)) : Optional.empty();
    }

    /** Name, size and modification time of every entry: what a process writing the store changes. */
    private static Map<String, String> fingerprint(Path directory) {
        Map<String, String> entries = new TreeMap<>();
        try (Stream<Path> children = Files.list(directory)) {
            for (Path child : (Iterable<Path>) children::iterator) {
                BasicFileAttributes attributes = Files.readAttributes(child, BasicFileAttributes.class);
                entries.put(child.getFileName().toString(), attributes.size() + "@" + attributes.lastModifiedTime());
            }
        } catch (IOException e) {
            // also a file deleted between listing and reading it: a process is changing the directory
            throw new StoreUnavailableException("could not list store directory " + directory + ": " + e, e);
        }
        return entries;
    }
}
