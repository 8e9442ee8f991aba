package io.lake.meta.rocks;

import java.util.Arrays;
import org.rocksdb.RocksIterator;

/**
 * Copies an iterator's current key and value out into arrays of their own, through two scratch
 * arrays reused for a whole page. RocksJava's {@code key()} and {@code value()} allocate each
 * array in native code, a JNI allocation per call; filling a Java array this class holds and
 * copying it in Java costs about two thirds as much ({@code ListingCopyProbe}), and a listing of
 * 100 000 keys took about three quarters of its time ({@code verification/performance.md}). A
 * scratch array grows to the longest key or value read so far. Not thread-safe: one page's
 * reader owns it.
 */
final class IteratorCopies {

    private byte[] keys = new byte[256];
    private byte[] values = new byte[1024];

    /** The iterator's current key, in an array no one else holds. */
    byte[] key(RocksIterator it) {
        int length = it.key(keys);
        if (length > keys.length) { // only part was copied: grow, and read it again
            keys = new byte[Math.max(length, 2 * keys.length)];
            it.key(keys);
        }
        return Arrays.copyOf(keys, length);
    }

    /** The iterator's current value, in an array no one else holds. */
    byte[] value(RocksIterator it) {
        int length = it.value(values);
        if (length > values.length) {
            values = new byte[Math.max(length, 2 * values.length)];
            it.value(values);
        }
        return Arrays.copyOf(values, length);
    }
}
