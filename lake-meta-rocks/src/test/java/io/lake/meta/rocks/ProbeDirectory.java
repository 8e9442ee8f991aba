package io.lake.meta.rocks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Removes the scratch directory a probe (a diagnostic main, not a test) opened RocksDB in. */
final class ProbeDirectory {

    private ProbeDirectory() {}

    /** Deletes the directory and everything below it, deepest first. */
    static void delete(Path directory) throws IOException {
        try (Stream<Path> paths = Files.walk(directory)) {
            paths.sorted(Comparator.reverseOrder())
                    .forEach(path -> path.toFile().delete());
        }
    }
}
