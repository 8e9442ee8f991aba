package io.lake.meta.dynamo;

import io.lake.meta.MetaKey;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The v2 layout's shard of a key. Part of the on-disk format: changing it would strand every
 * stored item in the wrong shard, so it is pinned by test vectors.
 *
 * <pre>
 *   digest = SHA-256(UTF-8 bytes of the full logical key, e.g. "tbl/ns1/orders")
 *   x      = digest[0..8) read as an unsigned 64-bit big-endian integer
 *   shard  = x mod shardCount          (unsigned remainder)
 * </pre>
 */
final class ShardFunction {

    private ShardFunction() {}

    /** The shard of {@code key} in a table of {@code shardCount} shards, in {@code 0..shardCount-1}. */
    static int shardOf(MetaKey key, int shardCount) {
        return shardOf(position(key), shardCount);
    }

    /** The unsigned 64-bit position of {@code key} that every shard count divides: {@code x} above. */
    static long position(MetaKey key) {
        return ByteBuffer.wrap(sha256(key.utf8()), 0, Long.BYTES).getLong();
    }

    /** The shard of a key at {@code position} in a table of {@code shardCount} shards. */
    static int shardOf(long position, int shardCount) {
        if (shardCount < 1) {
            throw new IllegalArgumentException("shardCount must be >= 1, got " + shardCount);
        }
        return (int) Long.remainderUnsigned(position, shardCount);
    }

    private static byte[] sha256(byte[] data) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(data);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every Java platform", e);
        }
    }
}
