package io.lake.meta.reliability.crash;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.Optional;
import java.util.stream.Stream;

/** The write-ahead log files of a RocksDB directory ({@code NNNNNN.log}), newest last. */
final class WalFiles {

    private final Path dir;

    WalFiles(Path dir) {
        this.dir = dir;
    }

    /** The WAL file with the highest number, which the last writer was appending to. */
    Optional<Path> newest() {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.getFileName().toString().matches("[0-9]+\\.log"))
                    .max(Comparator.comparingLong(
                            p -> Long.parseLong(p.getFileName().toString().replace(".log", ""))));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    long newestSize() {
        try {
            Optional<Path> wal = newest();
            return wal.isPresent() ? Files.size(wal.get()) : 0;
        } catch (IOException e) {
            return -1; // rotated away between the listing and the size: unknown
        }
    }

    /** Cuts {@code file} to its first {@code length} bytes: what a power loss keeps of an unsynced tail. */
    static void truncate(Path file, long length) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.truncate(length);
            channel.force(true);
        }
    }
}
