package io.lake.meta;

/**
 * A key and its value, as returned in a {@link Page}.
 *
 * @since 0.1.0
 */
public record Entry(MetaKey key, MetaValue value) {

    public Entry {
        Checks.notNull(key, "key");
        Checks.notNull(value, "value");
    }

    /**
     * An entry decoded from a stored key and value as {@link MetaKey#fromUtf8} and
     * {@link MetaValue#of} would, but without copying either array: the entry owns them from now
     * on, so the caller must neither keep nor change them. For a backend that reads fresh arrays
     * from its storage for every entry of a page (RocksDB's iterator does), where the two copies
     * would cost more than the rest of the decoding.
     *
     * @throws InvalidArgumentException if the key breaks a key rule or the value is over 256 KiB
     */
    public static Entry adopting(byte[] keyUtf8, byte[] value) {
        return new Entry(MetaKey.adoptUtf8(keyUtf8), MetaValue.adopt(value));
    }
}
