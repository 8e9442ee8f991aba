package io.lake.meta.spi;

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
import org.jspecify.annotations.Nullable;

/**
 * Encodes and decodes the opaque page tokens every backend hands out.
 *
 * <p>A token is base64url (no padding, unused bits zero: the one spelling the encoder writes) of:
 * <pre>
 *   version(1) | layoutDigest(4) | prefixDigest(8) | partition(4) | positionKind(1)
 *   [ | positionLength(2) | position UTF-8 ] | checksum(4)
 * </pre>
 * where the digests and the checksum are leading bytes of SHA-256. The position kind is 0 for
 * none (a partition's start), 1 for a key suffix: the last key returned, stored relative to the
 * prefix, so whatever a token says, the page resumes inside the prefix ({@link #encode}); or 2 for
 * a scan position: where a backend that cannot seek within a prefix resumes a scan of its whole
 * key space, which may lie outside the prefix ({@link #encodeScanPosition}). A decoder asks for
 * one kind and rejects the others.
 * The checksum catches corruption and casual edits; it is not a secret signature, and needs
 * not be: a forged token can only move the cursor within the caller's own prefix, or, for a scan
 * position, where the scan resumes (the backend keeps every page inside the prefix itself).
 *
 * <p>Immutable and thread-safe.
 *
 * @since 0.1.0
 */
public final class PageTokenCodec {

    /** The token format this library writes and reads. */
    public static final int VERSION = 1;

    /**
     * The longest scan position ({@link #encodeScanPosition}): twice the longest key, room for a
     * backend's own key encoding (DynamoDB's hash keys are at most 2048 bytes).
     *
     * @since 0.1.0
     */
    public static final int MAX_SCAN_POSITION_BYTES = 2048;

    private static final int LAYOUT_DIGEST_BYTES = 4;
    private static final int PREFIX_DIGEST_BYTES = 8;
    private static final int CHECKSUM_BYTES = 4;
    private static final byte NO_POSITION = 0;
    private static final byte KEY_SUFFIX = 1;
    private static final byte SCAN_POSITION = 2;
    private static final int FIXED_BYTES = 1 + LAYOUT_DIGEST_BYTES + PREFIX_DIGEST_BYTES + 4 + 1 + CHECKSUM_BYTES;
    private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();

    private final String layout;
    private final byte[] layoutDigest;
    private final int partitions;

    /**
     * @param layout names the backend and everything that changes what a position means, such
     *     as {@code "rocksdb"} or {@code "dynamodb-v2/shards=16"}; tokens of another layout are rejected
     * @param partitions how many partitions the layout has; decoded partitions must lie below it
     * @throws InvalidArgumentException if {@code layout} is null or empty, or {@code partitions} is below 1
     */
    public PageTokenCodec(String layout, int partitions) {
        if (notNull(layout, "layout").isEmpty()) {
            throw new InvalidArgumentException("layout must be a non-empty descriptor, such as rocksdb");
        }
        if (partitions < 1) {
            throw new InvalidArgumentException("partitions must be >= 1, got " + partitions);
        }
        this.layout = layout;
        this.partitions = partitions;
        this.layoutDigest = digest(layout.getBytes(StandardCharsets.UTF_8), LAYOUT_DIGEST_BYTES);
    }

    /**
     * The token that resumes {@code prefix} at {@code cursor}.
     *
     * @throws InvalidArgumentException if an argument is null or the cursor's partition is not one of this layout's
     */
    public String encode(KeyPrefix prefix, PageCursor cursor) {
        notNull(prefix, "prefix");
        if (notNull(cursor, "cursor").partition() >= partitions) {
            throw new InvalidArgumentException(
                    "partition " + cursor.partition() + " is outside 0.." + (partitions - 1) + " of layout " + layout);
        }
        byte[] suffix = cursor.afterSuffix()
                .map(s -> s.getBytes(StandardCharsets.UTF_8))
                .orElse(null);
        return envelope(prefix, cursor.partition(), suffix == null ? NO_POSITION : KEY_SUFFIX, suffix);
    }

    /**
     * The token that resumes a scan for {@code prefix} strictly after {@code position}: for a
     * backend whose pages scan its whole key space and keep what lies under the prefix (DynamoDB's
     * v1 layout), the position is the last key the scan evaluated, which may lie in another family
     * or be one of the backend's internal records. It cannot be held relative to the prefix, so
     * a forged one can move where the scan resumes, never what a page holds: the backend confines
     * every page to the prefix itself. The partition is 0.
     *
     * @throws InvalidArgumentException if an argument is null or {@code position} is empty or longer
     *     than {@value #MAX_SCAN_POSITION_BYTES} UTF-8 bytes
     * @since 0.1.0
     */
    public String encodeScanPosition(KeyPrefix prefix, String position) {
        notNull(prefix, "prefix");
        byte[] bytes = notNull(position, "position").getBytes(StandardCharsets.UTF_8);
        if (bytes.length == 0 || bytes.length > MAX_SCAN_POSITION_BYTES) {
            throw new InvalidArgumentException(
                    "a scan position is 1 to " + MAX_SCAN_POSITION_BYTES + " UTF-8 bytes, got " + bytes.length);
        }
        return envelope(prefix, 0, SCAN_POSITION, bytes);
    }

    private String envelope(KeyPrefix prefix, int partition, byte kind, byte @Nullable [] position) {
        ByteBuffer out = ByteBuffer.allocate(FIXED_BYTES + (position == null ? 0 : 2 + position.length));
        out.put((byte) VERSION);
        out.put(layoutDigest);
        out.put(digest(prefix.utf8(), PREFIX_DIGEST_BYTES));
        out.putInt(partition);
        out.put(kind);
        if (position != null) {
            out.putShort((short) position.length);
            out.put(position);
        }
        out.put(digest(Arrays.copyOf(out.array(), out.position()), CHECKSUM_BYTES));
        return ENCODER.encodeToString(out.array());
    }

    /**
     * Decodes a token issued for {@code prefix} by a store of this codec's layout.
     *
     * @throws InvalidPageTokenException if the token is malformed, not spelled exactly as issued,
     *     truncated, tampered with, of another version, or was issued for another prefix or layout
     * @throws InvalidArgumentException if {@code prefix} is null
     */
    public PageCursor decode(KeyPrefix prefix, String token) {
        ByteBuffer in = openEnvelope(prefix, token);
        int partition = in.getInt();
        if (partition < 0 || partition >= partitions) {
            throw invalid("its partition " + partition + " is outside 0.." + (partitions - 1));
        }
        PageCursor cursor = PageCursor.decoded(partition, readSuffix(in));
        if (in.hasRemaining()) {
            throw invalid("it has trailing bytes");
        }
        try {
            cursor.afterKey(prefix);
        } catch (InvalidArgumentException e) {
            throw invalid("its position does not form a valid key under the prefix");
        }
        return cursor;
    }

    /**
     * Decodes a token that {@link #encodeScanPosition} issued for {@code prefix} with this codec's
     * layout: the position the scan resumes strictly after.
     *
     * @throws InvalidPageTokenException if the token is malformed, not spelled exactly as issued,
     *     truncated, tampered with, of another version, holds no scan position (a key cursor), or
     *     was issued for another prefix or layout
     * @throws InvalidArgumentException if {@code prefix} is null
     * @since 0.1.0
     */
    public String decodeScanPosition(KeyPrefix prefix, String token) {
        ByteBuffer in = openEnvelope(prefix, token);
        if (in.getInt() != 0) {
            throw invalid("its partition is not 0, as every scan position's is");
        }
        if (in.get() != SCAN_POSITION) {
            throw invalid("it holds no scan position (it was issued by a store that pages by key)");
        }
        String position = readPosition(in);
        if (position.isEmpty() || position.getBytes(StandardCharsets.UTF_8).length > MAX_SCAN_POSITION_BYTES) {
            throw invalid("its scan position is malformed");
        }
        if (in.hasRemaining()) {
            throw invalid("it has trailing bytes");
        }
        return position;
    }

    /** Checks a token's spelling, version, checksum, layout and prefix; answers its partition and position. */
    private ByteBuffer openEnvelope(KeyPrefix prefix, String token) {
        notNull(prefix, "prefix");
        byte[] raw = base64(token);
        if (raw.length < 1) {
            throw invalid("it is empty");
        }
        if (raw[0] != VERSION) {
            throw invalid("its version " + (raw[0] & 0xff) + " is not supported (this library reads version " + VERSION
                    + ")");
        }
        if (raw.length < FIXED_BYTES) {
            throw invalid("it is truncated");
        }
        int body = raw.length - CHECKSUM_BYTES;
        if (!MessageDigest.isEqual(
                digest(Arrays.copyOf(raw, body), CHECKSUM_BYTES), Arrays.copyOfRange(raw, body, raw.length))) {
            throw invalid("its checksum does not match: it was truncated, corrupted or edited");
        }
        ByteBuffer in = ByteBuffer.wrap(raw, 1, body - 1);
        if (!MessageDigest.isEqual(read(in, LAYOUT_DIGEST_BYTES), layoutDigest)) {
            throw invalid(
                    "it was issued by another store layout (backend, layout version or shard count), not " + layout);
        }
        if (!MessageDigest.isEqual(read(in, PREFIX_DIGEST_BYTES), digest(prefix.utf8(), PREFIX_DIGEST_BYTES))) {
            throw invalid("it was issued for another prefix than '" + prefix + "'");
        }
        return in;
    }

    private static @Nullable String readSuffix(ByteBuffer in) {
        if (!in.hasRemaining()) {
            throw invalid("it is truncated");
        }
        byte kind = in.get();
        if (kind == NO_POSITION) {
            return null;
        }
        if (kind == SCAN_POSITION) {
            throw invalid("it holds a scan position, not a key (it was issued by a store that pages by scanning)");
        }
        if (kind != KEY_SUFFIX) {
            throw invalid("its position is malformed");
        }
        // An empty suffix is a real position: the last key returned was the prefix itself
        // (prefix "tbl/ns1/t", key "tbl/ns1/t"). Whether it forms a key is checked by the caller.
        return readPosition(in);
    }

    /** A position's length and UTF-8 text. */
    private static String readPosition(ByteBuffer in) {
        if (in.remaining() < 2) {
            throw invalid("its position is malformed");
        }
        int length = Short.toUnsignedInt(in.getShort());
        if (length > in.remaining()) {
            throw invalid("its position is malformed");
        }
        try {
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .decode(ByteBuffer.wrap(read(in, length)))
                    .toString();
        } catch (CharacterCodingException e) {
            throw invalid("its position is not valid UTF-8");
        }
    }

    private static byte[] base64(String token) {
        if (token == null) {
            throw invalid("it is null");
        }
        byte[] raw;
        try {
            raw = Base64.getUrlDecoder().decode(token);
        } catch (IllegalArgumentException e) {
            throw invalid("it is not base64url text");
        }
        // The decoder also reads '=' padding and ignores the unused low bits of the last
        // character, so several texts decode to the issued bytes; only the issued one is a token.
        if (!ENCODER.encodeToString(raw).equals(token)) {
            throw invalid("it is not spelled as issued (padding added or the last character changed)");
        }
        return raw;
    }

    private static <T> T notNull(T value, String name) {
        if (value == null) {
            throw new InvalidArgumentException(name + " must not be null");
        }
        return value;
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
        return new InvalidPageTokenException(
                "invalid page token: " + why
                        + "; pass the token exactly as the previous page returned it, with the same prefix, or start again without a token");
    }

    private static byte[] digest(byte[] data, int bytes) {
        try {
            return Arrays.copyOf(MessageDigest.getInstance("SHA-256").digest(data), bytes);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every Java platform", e);
        }
    }

    @Override
    public String toString() {
        return "PageTokenCodec[" + layout + ", partitions=" + partitions + "]";
    }
}
