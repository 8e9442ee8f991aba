package io.lake.meta.dynamo;

import io.lake.meta.MetaKey;
import io.lake.meta.MetaValue;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * A digest of a table's content that does not depend on the order items are read in, in constant
 * memory: the sum, modulo 2^256, of SHA-256(keyLength(4) | key UTF-8 | value) over every item.
 * Two scans of the same content in different orders (a Scan of the legacy table, a Scan of the
 * v2 table) give the same digest; a changed, missing or extra item changes it.
 */
final class ContentDigest {

    private static final BigInteger MODULUS = BigInteger.ONE.shiftLeft(256);

    private BigInteger sum = BigInteger.ZERO;
    private long items;

    void add(MetaKey key, MetaValue value) {
        byte[] k = key.utf8();
        byte[] v = value.toByteArray();
        MessageDigest sha = sha256();
        sha.update(ByteBuffer.allocate(4).putInt(k.length).array());
        sha.update(k);
        sha.update(v);
        sum = sum.add(new BigInteger(1, sha.digest())).mod(MODULUS);
        items++;
    }

    long items() {
        return items;
    }

    /** {@code sha256-sum:} and 64 hex digits. */
    String value() {
        return "sha256-sum:" + String.format("%064x", sum);
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every Java platform", e);
        }
    }
}
