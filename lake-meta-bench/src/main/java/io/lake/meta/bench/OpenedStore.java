package io.lake.meta.bench;

import io.lake.meta.rocks.Durability;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Locale;
import java.util.stream.Stream;

/** A backend opened in a fresh temporary directory, deleted again on close. */
final class OpenedStore implements AutoCloseable {

    private final Path directory;
    private final BenchStore store;

    private OpenedStore(Path directory, BenchStore store) {
        this.directory = directory;
        this.store = store;
    }

    static OpenedStore open(Backend backend, Durability durability) {
        try {
            Path directory = Files.createTempDirectory(
                    "lake-meta-bench-" + backend.name().toLowerCase(Locale.ROOT) + "-");
            return new OpenedStore(directory, backend.open(directory, durability));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    BenchStore store() {
        return store;
    }

    @Override
    public void close() {
        store.close();
        try (Stream<Path> files = Files.walk(directory)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(file);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
