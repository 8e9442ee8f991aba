package io.lake.meta.bench;

import io.lake.meta.MetaKey;

/**
 * A key prepared once for every backend: lake-meta takes the {@link MetaKey}, raw RocksDB the
 * UTF-8 bytes, so neither pays for the other's form inside a measured call.
 */
@SuppressWarnings("ArrayRecordComponent") // a holder of prepared bytes, never compared or hashed
public record BenchKey(MetaKey meta, byte[] utf8) {

    public static BenchKey of(String text) {
        MetaKey key = MetaKey.of(text);
        return new BenchKey(key, key.utf8());
    }
}
