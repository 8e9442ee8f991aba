package io.lake.meta.reliability.hostile;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * What a directory holds on disk: every file (recursively) with its size, and with
 * {@link #withContents} a SHA-256 of its bytes. Equal snapshots: nothing was created, removed,
 * grown or (with contents) rewritten.
 */
record DiskSnapshot(Map<String, String> files) {

    static DiskSnapshot of(Path dir) {
        return take(dir, false);
    }

    static DiskSnapshot withContents(Path dir) {
        return take(dir, true);
    }

    private static DiskSnapshot take(Path root, boolean contents) {
        Map<String, String> files = new TreeMap<>();
        if (!Files.exists(root)) {
            return new DiskSnapshot(files);
        }
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : (Iterable<Path>) walk::iterator) {
                String name = root.relativize(p).toString();
                if (Files.isDirectory(p)) {
                    files.put(name + "/", "dir");
                } else {
                    files.put(name, Files.size(p) + (contents ? " " + sha256(p) : ""));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new DiskSnapshot(files);
    }

    private static String sha256(Path p) throws IOException {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(p)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
