package io.lake.meta.rocks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * Every entry under a directory (the directory itself included): its relative name, kind, size,
 * modification time and, for files, the SHA-256 of its content. Two snapshots are equal exactly
 * when nothing was created, deleted, renamed or written in between.
 */
record DirectorySnapshot(Map<String, String> entries) {

    static DirectorySnapshot of(Path root) {
        Map<String, String> entries = new TreeMap<>();
        try (Stream<Path> paths = Files.walk(root)) {
            paths.forEach(path -> entries.put(root.relativize(path).toString(), describe(path)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new DirectorySnapshot(entries);
    }

    private static String describe(Path path) {
        try {
            BasicFileAttributes attributes = Files.readAttributes(path, BasicFileAttributes.class);
            String common = "size=" + attributes.size() + " mtime="
                    + attributes.lastModifiedTime().toInstant();
            if (attributes.isDirectory()) {
                return "dir " + common;
            }
            return "file " + common + " sha256=" + sha256(Files.readAllBytes(path));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String sha256(byte[] content) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(content));
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError("every JVM has SHA-256", e);
        }
    }
}
