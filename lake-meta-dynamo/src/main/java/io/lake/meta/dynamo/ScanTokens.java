package io.lake.meta.dynamo;

import io.lake.meta.InvalidArgumentException;
import io.lake.meta.InvalidPageTokenException;
import io.lake.meta.KeyPrefix;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Base64;

/**
 * Page tokens of the v1 layout, whose pages are a {@code Scan}: the position a scan resumes after
 * is the hash key of the last item it <em>evaluated</em>, which may lie in another family (the
 * filter dropped it), so it cannot be held relative to the prefix as
 * {@link io.lake.meta.spi.PageTokenCodec} holds positions. The envelope is the same:
 *
 * <pre>
 *   version(1) | layoutDigest(4) | prefixDigest(8) | positionLength(2) | position UTF-8 | checksum(4)
 * </pre>
 *
 * base64url without padding, spelled exactly as issued, digests and checksum the leading bytes of
 * SHA-256. A forged position can only move where the scan resumes: every page still filters on
 * the prefix, so a token never yields a key outside it.
 */
final class ScanTokens {

    static final int VERSION = 1;
    /** DynamoDB's limit on a hash key value. */
    private static final int MAX_POSITION_BYTES = 2048;
    private static final int LAYOUT_DIGEST_BYTES = 4;
    private static final int PREFIX_DIGEST_BYTES = 8;
    private static final int CHECKSUM_BYTES = 4;
    private static final int FIXED_BYTES = 1 + LAYOUT_DIGEST_BYTES + PREFIX_DIGEST_BYTES + 2 + CHECKSUM_BYTES;
    private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();

    private final String layout;
    private final byte[] layoutDigest;

    ScanTokens(String layout) {
        this.layout = layout;
        this.layoutDigest = digest(layout.getBytes(StandardCharsets.UTF_8), LAYOUT_DIGEST_BYTES);
    }

    /** The token that resumes {@code prefix}'s scan strictly after the item whose hash key is {@code position}. */
    String encode(KeyPrefix prefix, String position) {
        byte[] bytes = position.getBytes(StandardCharsets.UTF_8);
        if (bytes.length == 0 || bytes.length > MAX_POSITION_BYTES) {
            throw new InvalidArgumentException("a scan position is 1 to " + MAX_POSITION_BYTES + " bytes, got " + bytes.length);
        }
        ByteBuffer out = ByteBuffer.allocate(FIXED_BYTES + bytes.length);
        out.put((byte) VERSION);
        out.put(layoutDigest);
        out.put(digest(prefix.utf8(), PREFIX_DIGEST_BYTES));
        out.putShort((short) bytes.length);
        out.put(bytes);
        out.put(digest(Arrays.copyOf(out.array(), out.position()), CHECKSUM_BYTES));
        return ENCODER.encodeToString(out.array());
    }

    /**
     * The position a token issued for {@code prefix} by this layout resumes after.
     *
     * @throws InvalidPageTokenException if the token is malformed, not spelled as issued, truncated,
     *     tampered with, of another version, or was issued for another prefix or layout
     */
    String decode(KeyPrefix prefix, String token) {
        if (token == null) {
            throw invalid("it is null");
        }
        byte[] raw;
        try {
            raw = Base64.getUrlDecoder().decode(token);
        } catch (IllegalArgumentException e) {
            throw invalid("it is not base64url text");
        }
        if (!ENCODER.encodeToString(raw).equals(token)) {
            throw invalid("it is not spelled as issued (padding added or the last character changed)");
        }
        if (raw.length < 1) {
            throw invalid("it is empty");
        }
        if (raw[0] != VERSION) {
            throw invalid("its version " + (raw[0] & 0xff) + " is not supported (this library reads version " + VERSION + ")");
        }
        if (raw.length < FIXED_BYTES) {
            throw invalid("it is truncated");
        }
        int body = raw.length - CHECKSUM_BYTES;
        if (!MessageDigest.isEqual(digest(Arrays.copyOf(raw, body), CHECKSUM_BYTES), Arrays.copyOfRange(raw, body, raw.length))) {
            throw invalid("its checksum does not match: it was truncated, corrupted or edited");
        }
        ByteBuffer in = ByteBuffer.wrap(raw, 1, body - 1);
        if (!MessageDigest.isEqual(read(in, LAYOUT_DIGEST_BYTES), layoutDigest)) {
            throw invalid("it was issued by another store layout, not " + layout);
        }
        if (!MessageDigest.isEqual(read(in, PREFIX_DIGEST_BYTES), digest(prefix.utf8(), PREFIX_DIGEST_BYTES))) {
            throw invalid("it was issued for another prefix than '" + prefix + "'");
        }
        int length = Short.toUnsignedInt(in.getShort());
        if (length == 0 || length > MAX_POSITION_BYTES || length != in.remaining()) {
            throw invalid("its position is malformed");
        }
        try {
            return StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(read(in, length))).toString();
        } catch (CharacterCodingException e) {
            throw invalid("its position is not valid UTF-8");
        }
    }

    private static byte[] read(ByteBuffer in, int n) {
        if (in.remaining() < n) {
            throw invalid("it is truncated");
        }
        byte[] out = new byte[n];
        in.get(out);
        return out;
    }

    private static InvalidPageTokenException invalid(String why) {
        return new InvalidPageTokenException("invalid page token: " + why
                + "; pass the token exactly as the previous page returned it, with the same prefix, or start again without a token");
    }

    private static byte[] digest(byte[] data, int bytes) {
        try {
            return Arrays.copyOf(MessageDigest.getInstance("SHA-256").digest(data), bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every Java platform", e);
        }
    }
}
