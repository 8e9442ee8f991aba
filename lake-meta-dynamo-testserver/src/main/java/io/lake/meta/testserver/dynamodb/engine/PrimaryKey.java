package io.lake.meta.testserver.dynamodb.engine;

import io.lake.meta.testserver.dynamodb.model.AttrValue;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Objects;

/**
 * An item's position in a table: a 32-bit token hashed from the partition key (the order a
 * Scan walks, and what parallel-scan segments split), then the partition key, then the sort key
 * in DynamoDB's order. All items of one partition are therefore contiguous and sorted.
 */
record PrimaryKey(long token, AttrValue hash, AttrValue range) implements Comparable<PrimaryKey> {

    static PrimaryKey of(AttrValue hash, AttrValue range) {
        return new PrimaryKey(token(hash), hash, range);
    }

    static long token(AttrValue hash) {
        try {
            MessageDigest md5 = MessageDigest.getInstance("MD5");
            md5.update((byte) hash.type().ordinal());
            byte[] digest = md5.digest(hash.identityBytes());
            return ByteBuffer.wrap(digest).getInt() & 0xFFFF_FFFFL;
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The parallel-scan segment of this key among {@code totalSegments}. */
    int segment(int totalSegments) {
        return (int) ((token * totalSegments) >>> 32);
    }

    boolean samePartition(PrimaryKey other) {
        return token == other.token && hash.equals(other.hash);
    }

    @Override
    public int compareTo(PrimaryKey o) {
        int c = Long.compare(token, o.token);
        if (c != 0) {
            return c;
        }
        c = AttrValue.compareScalars(hash, o.hash);
        if (c != 0 || range == null || o.range == null) {
            return c != 0 ? c : Boolean.compare(range != null, o.range != null);
        }
        return AttrValue.compareScalars(range, o.range);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PrimaryKey && compareTo((PrimaryKey) o) == 0;
    }

    @Override
    public int hashCode() {
        return Objects.hash(hash, range);
    }
}
