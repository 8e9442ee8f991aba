package io.lake.meta.rocks;

import io.lake.meta.InvalidArgumentException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;

/**
 * The on-disk format marker, and which databases are lake-meta stores of this format. A store
 * records {@code lake-meta-rocks/<version>} under an internal key when it is created; opening
 * checks it, so a directory of another program or of another format version is refused instead
 * of misread.
 */
final class StoreFormat {

    /** The on-disk format this library writes and reads. */
    static final int VERSION = 1;

    private static final String MARKER_PREFIX = "lake-meta-rocks/";

    private StoreFormat() {}

    static byte[] marker() {
        return (MARKER_PREFIX + VERSION).getBytes(StandardCharsets.UTF_8);
    }

    /** The format version a marker names, or empty when it is not a lake-meta marker at all. */
    static Optional<String> versionOf(byte[] marker) {
        String text = new String(marker, StandardCharsets.UTF_8);
        return text.startsWith(MARKER_PREFIX) ? Optional.of(text.substring(MARKER_PREFIX.length())) : Optional.empty();
    }

    /** A store keeps everything in the default column family; a database with others is not one. */
    static void checkColumnFamilies(List<byte[]> families, Path directory) {
        List<String> others = families.stream()
                .filter(family -> !Arrays.equals(family, RocksDB.DEFAULT_COLUMN_FAMILY))
                .map(family -> new String(family, StandardCharsets.UTF_8))
                .toList();
        if (!others.isEmpty()) {
            throw notOurs(
                    directory,
                    "it holds other column families (" + others.stream().collect(Collectors.joining(", ")) + ")");
        }
    }

    /**
     * Whether the open database carries this version's marker; false for an empty database (new,
     * or left by a process that stopped before writing the marker), which the caller may adopt.
     *
     * @throws InvalidArgumentException for any other database: another program's, or another
     *     format version's
     */
    static boolean markerPresent(RocksDB db, Path directory) throws RocksDBException {
        byte[] marker = db.get(Keys.FORMAT_MARKER);
        if (marker != null) {
            Optional<String> version = versionOf(marker);
            if (version.isEmpty()) {
                throw notOurs(directory, "its format marker is not a lake-meta marker");
            }
            if (!version.get().equals(Integer.toString(VERSION))) {
                throw new InvalidArgumentException(directory + " holds a lake-meta store of format version "
                        + version.get() + "; this library reads format version " + VERSION
                        + ": open it with the lake-meta version that wrote it");
            }
            return true;
        }
        try (RocksIterator it = db.newIterator()) {
            it.seekToFirst();
            if (it.isValid()) {
                throw notOurs(directory, "it holds a RocksDB database without a lake-meta format marker");
            }
            it.status();
        }
        return false;
    }

    static InvalidArgumentException notOurs(Path directory, String why) {
        return new InvalidArgumentException(directory + " is not a lake-meta store: " + why
                + "; point the store at its own directory (an empty or new one to create a store)");
    }
}
