package io.lake.meta.testserver.dynamodb.engine;

import io.lake.meta.testserver.dynamodb.model.AttrValue;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * An item's position in a table: a 32-bit token hashed from the partition key (the order a
 * Scan walks, and what parallel-scan segments split), then the partition key, then the sort key
 * in DynamoDB's order. All items of one partition are therefore contiguous and sorted, and
 * {@link #partitionStart} / {@link #partitionEnd} bound them for range views of the item map.
 */
final class PrimaryKey implements Comparable<PrimaryKey> {

    private final long token;
    private final AttrValue hash;
    private final @Nullable AttrValue range; // null: the table has no sort key, or a partition bound
    /** -1: before every item of the partition; +1: after every one; 0: a real key. */
    private final int bound;

    private PrimaryKey(long token, AttrValue hash, @Nullable AttrValue range, int bound) {
        this.token = token;
        this.hash = hash;
        this.range = range;
        this.bound = bound;
    }

    static PrimaryKey of(AttrValue hash, @Nullable AttrValue range) {
        return new PrimaryKey(token(hash), hash, range, 0);
    }

    static PrimaryKey partitionStart(AttrValue hash) {
        return new PrimaryKey(token(hash), hash, null, -1);
    }

    static PrimaryKey partitionEnd(AttrValue hash) {
        return new PrimaryKey(token(hash), hash, null, 1);
    }

    @SuppressWarnings("EnumOrdinal") // the type's ordinal is part of the token, which fixes the items' order
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

    AttrValue hash() {
        return hash;
    }

    /** The sort-key value; null on tables without a sort key. */
    @Nullable
    AttrValue range() {
        return range;
    }

    /** The parallel-scan segment of this key among {@code totalSegments}. */
    int segment(int totalSegments) {
        return (int) ((token * totalSegments) >>> 32);
    }

    @Override
    public int compareTo(PrimaryKey o) {
        int c = Long.compare(token, o.token);
        if (c != 0) {
            return c;
        }
        c = AttrValue.compareScalars(hash, o.hash);
        if (c != 0) {
            return c;
        }
        if (bound != 0 || o.bound != 0) {
            return Integer.compare(bound, o.bound);
        }
        if (range == null || o.range == null) {
            return 0; // a table without a sort key: one item per partition
        }
        return AttrValue.compareScalars(range, o.range);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PrimaryKey && compareTo((PrimaryKey) o) == 0;
    }

    @Override
    public int hashCode() {
        return Objects.hash(hash, range, bound);
    }
}
