package io.lake.meta.rocks;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * How keys are laid out in the RocksDB keyspace. Public keys are stored as their UTF-8 bytes;
 * they always start with {@code [a-z0-9]}. Internal records start with {@code 0x00}, which no
 * public key or prefix can reach, and which lies below every public key so prefix iteration
 * never meets them.
 */
final class Keys {

    /** The first byte of every internal record. */
    static final byte INTERNAL = 0x00;

    /** The format marker: written when a store is created, checked on every open. */
    static final byte[] FORMAT_MARKER = internal("lake-meta/format");

    private Keys() {}

    static byte[] internal(String name) {
        byte[] text = name.getBytes(StandardCharsets.UTF_8);
        byte[] key = new byte[text.length + 1];
        key[0] = INTERNAL;
        System.arraycopy(text, 0, key, 1, text.length);
        return key;
    }

    /**
     * The smallest key greater than every key that starts with {@code prefix}: an exclusive
     * upper bound for iterating the prefix. Exists for every valid prefix, which holds a '/'.
     */
    static byte[] successor(byte[] prefix) {
        for (int i = prefix.length - 1; i >= 0; i--) {
            if (prefix[i] != (byte) 0xff) {
                byte[] next = Arrays.copyOf(prefix, i + 1);
                next[i]++;
                return next;
            }
        }
        throw new IllegalArgumentException("a prefix of only 0xff bytes has no successor");
    }

    /** The smallest key strictly greater than {@code key}. */
    static byte[] justAfter(byte[] key) {
        return Arrays.copyOf(key, key.length + 1);
    }
}
