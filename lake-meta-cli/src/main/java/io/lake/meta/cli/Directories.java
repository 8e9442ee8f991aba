package io.lake.meta.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/** Directory checks the commands share. */
public final class Directories {

    private Directories() {}

    /** Whether {@code directory} is an existing directory with nothing in it. */
    public static boolean isEmpty(Path directory) throws IOException {
        if (!Files.isDirectory(directory)) {
            return false;
        }
        try (Stream<Path> children = Files.list(directory)) {
            return children.findAny().isEmpty();
        }
    }
}
