package io.lake.meta.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.strings;

import io.lake.meta.InvalidArgumentException;
import io.lake.meta.InvalidPageTokenException;
import io.lake.meta.KeyPrefix;
import io.lake.meta.MetaKey;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

class PageTokenCodecTest {

    private static final int CHECKSUM_BYTES = 4;

    private final PageTokenCodec codec = new PageTokenCodec("memory", 1);
    private final KeyPrefix prefix = KeyPrefix.of("tbl/ns1/");

    // --- round trips ------------------------------------------------------------------------

    @Test
    void roundTrip_startOfPartition_hasNoPosition() {
        String token = codec.encode(prefix, PageCursor.startOf(0));

        PageCursor cursor = codec.decode(prefix, token);

        assertThat(cursor).isEqualTo(PageCursor.startOf(0));
        assertThat(cursor.afterKey(prefix)).isEmpty();
    }

    @Test
    void roundTrip_afterKey_resumesAfterThatKey() {
        MetaKey last = MetaKey.of("tbl/ns1/orders");

        PageCursor cursor = codec.decode(prefix, codec.encode(prefix, PageCursor.after(0, prefix, last)));

        assertThat(cursor.partition()).isZero();
        assertThat(cursor.afterKey(prefix)).contains(last);
    }

    @Test
    void roundTrip_multiByteSuffix_keepsEveryCharacter() {
        for (String k :
                new String[] {"tbl/ns1/caf\u00e9", "tbl/ns1/\u20ac100", "tbl/ns1/\ud83d\ude00/x", "tbl/ns1/\u0000"}) {
            MetaKey last = MetaKey.of(k);

            PageCursor cursor = codec.decode(prefix, codec.encode(prefix, PageCursor.after(0, prefix, last)));

            assertThat(cursor.afterKey(prefix)).as(k).contains(last);
        }
    }

    @Test
    void roundTrip_keyEqualToThePrefix_resumesAfterIt() {
        KeyPrefix inSegment = KeyPrefix.of("tbl/ns1/t");
        MetaKey last = MetaKey.of("tbl/ns1/t");

        PageCursor cursor = codec.decode(inSegment, codec.encode(inSegment, PageCursor.after(0, inSegment, last)));

        assertThat(cursor.afterKey(inSegment)).contains(last);
    }

    @Test
    void roundTrip_longestKey_fits() {
        MetaKey last = MetaKey.of("tbl/ns1/" + "\u00e9".repeat(508));
        assertThat(last.utf8Length()).isEqualTo(1024);

        PageCursor cursor = codec.decode(prefix, codec.encode(prefix, PageCursor.after(0, prefix, last)));

        assertThat(cursor.afterKey(prefix)).contains(last);
    }

    @Test
    void roundTrip_keepsThePartition() {
        PageTokenCodec sharded = new PageTokenCodec("dynamodb-v2/shards=16", 16);

        assertThat(sharded.decode(prefix, sharded.encode(prefix, PageCursor.startOf(15))))
                .isEqualTo(PageCursor.startOf(15));
        assertThat(sharded.decode(prefix, sharded.encode(prefix, PageCursor.after(7, prefix, MetaKey.of("tbl/ns1/x")))))
                .isEqualTo(PageCursor.after(7, prefix, MetaKey.of("tbl/ns1/x")));
    }

    @Test
    void encode_isUnpaddedBase64Url() {
        String token = codec.encode(prefix, PageCursor.after(0, prefix, MetaKey.of("tbl/ns1/\ud83d\ude00???>>>")));

        assertThat(token).matches("[A-Za-z0-9_-]+");
    }

    @Test
    void encode_partitionOutsideTheLayout_isRefused() {
        assertThatThrownBy(() -> codec.encode(prefix, PageCursor.startOf(1)))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("partition 1");
    }

    @Test
    void constructor_refusesBadDescriptors() {
        assertThatThrownBy(() -> new PageTokenCodec("", 1)).isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> new PageTokenCodec(null, 1)).isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> new PageTokenCodec("x", 0)).isInstanceOf(InvalidArgumentException.class);
    }

    // --- rejections -------------------------------------------------------------------------

    @Test
    void malformedBase64_isRejected() {
        for (String garbage :
                new String[] {"", "A", "a+b/", "abc def", "!!!!", "ab==cd", "\u00e9\u00e9\u00e9\u00e9", "%41%42"}) {
            assertThatThrownBy(() -> codec.decode(prefix, garbage))
                    .as("'%s'", garbage)
                    .isInstanceOf(InvalidPageTokenException.class);
        }
        assertThatThrownBy(() -> codec.decode(prefix, null)).isInstanceOf(InvalidPageTokenException.class);
    }

    @Test
    void truncatedToken_isRejected_atEveryLength() {
        String token = codec.encode(prefix, PageCursor.after(0, prefix, MetaKey.of("tbl/ns1/orders")));
        byte[] raw = decode(token);

        for (int length = 0; length < token.length(); length++) {
            String cut = token.substring(0, length);
            assertThatThrownBy(() -> codec.decode(prefix, cut))
                    .as("text cut to %d chars", length)
                    .isInstanceOf(InvalidPageTokenException.class);
        }
        for (int length = 0; length < raw.length; length++) {
            String cut = encode(Arrays.copyOf(raw, length));
            assertThatThrownBy(() -> codec.decode(prefix, cut))
                    .as("bytes cut to %d", length)
                    .isInstanceOf(InvalidPageTokenException.class);
        }
    }

    @Test
    void flippedBit_isRejected_anywhereInTheToken() {
        for (PageCursor cursor :
                new PageCursor[] {PageCursor.startOf(0), PageCursor.after(0, prefix, MetaKey.of("tbl/ns1/o\u00e9"))}) {
            byte[] raw = decode(codec.encode(prefix, cursor));
            for (int i = 0; i < raw.length; i++) {
                for (int bit = 0; bit < 8; bit++) {
                    byte[] flipped = raw.clone();
                    flipped[i] ^= (byte) (1 << bit);
                    String token = encode(flipped);
                    int byteIndex = i;
                    int bitIndex = bit;
                    assertThatThrownBy(() -> codec.decode(prefix, token))
                            .as("bit %d of byte %d", bitIndex, byteIndex)
                            .isInstanceOf(InvalidPageTokenException.class);
                }
            }
        }
    }

    @Test
    void nonCanonicalSpelling_ofTheSameBytes_isRejected() {
        // Keys of 1 to 3 characters after the prefix give tokens of every length modulo 4, so the
        // last character carries 4, 2 or no unused bits and padding of "==", "=" or none fits.
        List<String> tokens = new ArrayList<>(List.of(codec.encode(prefix, PageCursor.startOf(0))));
        for (String k : List.of("tbl/ns1/a", "tbl/ns1/ab", "tbl/ns1/abc")) {
            tokens.add(codec.encode(prefix, PageCursor.after(0, prefix, MetaKey.of(k))));
        }
        int tried = 0;
        for (String token : tokens) {
            byte[] raw = decode(token);
            for (String variant : sameBytesSpellings(token)) {
                assertThat(decode(variant))
                        .as("%s decodes to the bytes of %s", variant, token)
                        .isEqualTo(raw);
                Throwable thrown = catchThrowable(() -> codec.decode(prefix, variant));
                assertThat(thrown)
                        .as("decode %s, a respelling of the issued %s", variant, token)
                        .isInstanceOf(InvalidPageTokenException.class)
                        .hasMessageContaining("not spelled");
                tried++;
            }
            assertThat(codec.decode(prefix, token))
                    .as("the genuine token %s", token)
                    .isNotNull();
        }
        assertThat(tokens.stream().map(t -> t.length() % 4).distinct())
                .as("token lengths modulo 4")
                .contains(0, 2, 3);
        assertThat(tried)
                .as("respellings tried: 15 + 3 last characters per unused-bits class, plus padding")
                .isGreaterThanOrEqualTo(20);
    }

    @Test
    void otherVersion_isRejected_evenWithAValidChecksum() {
        byte[] raw = decode(codec.encode(prefix, PageCursor.startOf(0)));
        for (int version : new int[] {0, 2, 255}) {
            byte[] body = Arrays.copyOf(raw, raw.length - CHECKSUM_BYTES);
            body[0] = (byte) version;
            assertThatThrownBy(() -> codec.decode(prefix, forge(body)))
                    .as("version %d", version)
                    .isInstanceOf(InvalidPageTokenException.class)
                    .hasMessageContaining("version");
        }
    }

    @Test
    void otherLayout_isRejected() {
        String rocksToken = new PageTokenCodec("rocksdb", 1).encode(prefix, PageCursor.startOf(0));
        String otherShards = new PageTokenCodec("dynamodb-v2/shards=16", 16).encode(prefix, PageCursor.startOf(0));

        assertThatThrownBy(() -> codec.decode(prefix, rocksToken))
                .isInstanceOf(InvalidPageTokenException.class)
                .hasMessageContaining("layout");
        assertThatThrownBy(() -> new PageTokenCodec("dynamodb-v2/shards=8", 8).decode(prefix, otherShards))
                .isInstanceOf(InvalidPageTokenException.class);
    }

    @Test
    void otherPrefix_isRejected() {
        String token = codec.encode(prefix, PageCursor.after(0, prefix, MetaKey.of("tbl/ns1/orders")));

        for (String other :
                new String[] {"tbl/ns10/", "tbl/ns1/o", "tbl/", "tbl/ns1", "tbl2/ns1/", "TBL/ns1/".toLowerCase() + "x"
                }) {
            assertThatThrownBy(() -> codec.decode(KeyPrefix.of(other), token))
                    .as(other)
                    .isInstanceOf(InvalidPageTokenException.class)
                    .hasMessageContaining("prefix");
        }
    }

    @Test
    void partitionOutOfRange_isRejected_evenWithAValidChecksum() {
        for (int partition : new int[] {1, 16, -1, Integer.MIN_VALUE}) {
            byte[] body = body(codec.encode(prefix, PageCursor.startOf(0)));
            ByteBuffer.wrap(body).putInt(1 + 4 + 8, partition);
            assertThatThrownBy(() -> codec.decode(prefix, forge(body)))
                    .as("partition %d", partition)
                    .isInstanceOf(InvalidPageTokenException.class)
                    .hasMessageContaining("partition");
        }
    }

    @Test
    void trailingBytes_areRejected_evenWithAValidChecksum() {
        for (PageCursor cursor :
                new PageCursor[] {PageCursor.startOf(0), PageCursor.after(0, prefix, MetaKey.of("tbl/ns1/a"))}) {
            byte[] body = body(codec.encode(prefix, cursor));
            byte[] longer = Arrays.copyOf(body, body.length + 1);
            assertThatThrownBy(() -> codec.decode(prefix, forge(longer))).isInstanceOf(InvalidPageTokenException.class);
        }
    }

    @Test
    void forgedPositionThatIsNoValidKey_isRejected() {
        // A suffix that makes the key longer than 1024 bytes, one that is not UTF-8, one with an
        // encoded surrogate, a bad flag, and a length that runs past the end.
        byte[][] suffixes = {
            "x".repeat(1024 - prefix.utf8().length + 1).getBytes(StandardCharsets.UTF_8),
            {(byte) 0xff},
            {(byte) 0xed, (byte) 0xa0, (byte) 0x80},
            {(byte) 0xc3}
        };
        for (byte[] suffix : suffixes) {
            assertThatThrownBy(() -> codec.decode(prefix, forge(bodyWithSuffix(1, suffix.length, suffix))))
                    .isInstanceOf(InvalidPageTokenException.class);
        }
        assertThatThrownBy(() -> codec.decode(prefix, forge(bodyWithSuffix(2, 1, new byte[] {'a'}))))
                .isInstanceOf(InvalidPageTokenException.class);
        assertThatThrownBy(() -> codec.decode(prefix, forge(bodyWithSuffix(1, 5, new byte[] {'a'}))))
                .isInstanceOf(InvalidPageTokenException.class);
        assertThatThrownBy(() -> codec.decode(
                        KeyPrefix.of("tbl/"), forge(bodyWithSuffix(KeyPrefix.of("tbl/"), 1, 0, new byte[0]))))
                .as("an empty position under a family prefix is no key")
                .isInstanceOf(InvalidPageTokenException.class);
    }

    @Test
    void forgedButWellFormedToken_canOnlyMoveWithinThePrefix() {
        byte[] suffix = "../../other/secret".getBytes(StandardCharsets.UTF_8);

        PageCursor cursor = codec.decode(prefix, forge(bodyWithSuffix(1, suffix.length, suffix)));

        assertThat(cursor.afterKey(prefix)).contains(MetaKey.of("tbl/ns1/../../other/secret"));
        assertThat(prefix.contains(cursor.afterKey(prefix).orElseThrow())).isTrue();
    }

    @Test
    void decodingGarbage_eitherFailsTypedOrStaysInsideThePrefix() {
        Gen<String> text = strings().allPossible().ofLengthBetween(0, 80);
        Gen<String> base64OfBytes = Generate.byteArrays(
                        integers().between(0, 120), Generate.bytes(Byte.MIN_VALUE, Byte.MAX_VALUE, (byte) 0))
                .map(PageTokenCodecTest::encode);
        Gen<String> forgedBodies = Generate.byteArrays(
                        integers().between(0, 60), Generate.bytes(Byte.MIN_VALUE, Byte.MAX_VALUE, (byte) 0))
                .map(tail -> forge(concat(header(prefix), tail)));
        Gen<String> forgedSuffixes = Generate.byteArrays(
                        integers().between(0, 40), Generate.bytes(Byte.MIN_VALUE, Byte.MAX_VALUE, (byte) 0))
                .map(suffix -> forge(bodyWithSuffix(1, suffix.length, suffix)));

        qt().withExamples(2000)
                .forAll(Generate.oneOf(text, base64OfBytes, forgedBodies, forgedSuffixes))
                .checkAssert(token -> {
                    PageCursor cursor;
                    try {
                        cursor = codec.decode(prefix, token);
                    } catch (InvalidPageTokenException expected) {
                        return;
                    }
                    Optional<MetaKey> after = cursor.afterKey(prefix);
                    assertThat(cursor.partition()).isZero();
                    after.ifPresent(k -> assertThat(prefix.contains(k))
                            .as("%s under %s", k, prefix)
                            .isTrue());
                });
    }

    // --- scan positions ---------------------------------------------------------------------

    @Test
    void scanPosition_roundTrips_insideOrOutsideThePrefix() {
        for (String position : List.of(
                "tbl/ns1/orders",
                "lease/elsewhere",
                "#migration#complete",
                "caf\u00e9/\ud83d\ude00",
                "x".repeat(PageTokenCodec.MAX_SCAN_POSITION_BYTES))) {
            assertThat(codec.decodeScanPosition(prefix, codec.encodeScanPosition(prefix, position)))
                    .isEqualTo(position);
        }
    }

    @Test
    void scanPosition_emptyOrTooLongOrNull_isRefusedWhenEncoding() {
        for (String position : new String[] {
            "",
            "x".repeat(PageTokenCodec.MAX_SCAN_POSITION_BYTES + 1),
            "\u00e9".repeat(PageTokenCodec.MAX_SCAN_POSITION_BYTES / 2 + 1),
            null
        }) {
            assertThatThrownBy(() -> codec.encodeScanPosition(prefix, position))
                    .isInstanceOf(InvalidArgumentException.class);
        }
        assertThatThrownBy(() -> codec.encodeScanPosition(null, "k")).isInstanceOf(InvalidArgumentException.class);
    }

    @Test
    void scanPositionAndKeyCursor_areEachRejectedWhereTheOtherIsExpected() {
        String scan = codec.encodeScanPosition(prefix, "tbl/ns1/orders");
        String cursor = codec.encode(prefix, PageCursor.after(0, prefix, MetaKey.of("tbl/ns1/orders")));
        String start = codec.encode(prefix, PageCursor.startOf(0));

        assertThatThrownBy(() -> codec.decode(prefix, scan))
                .isInstanceOf(InvalidPageTokenException.class)
                .hasMessageContaining("scan position");
        for (String token : List.of(cursor, start)) {
            assertThatThrownBy(() -> codec.decodeScanPosition(prefix, token))
                    .isInstanceOf(InvalidPageTokenException.class)
                    .hasMessageContaining("no scan position");
        }
    }

    @Test
    void scanPosition_isBoundToItsPrefixAndLayout_andEveryFlippedBitIsRejected() {
        String token = codec.encodeScanPosition(prefix, "other/k\u00e9");
        assertThatThrownBy(() -> codec.decodeScanPosition(KeyPrefix.of("tbl/ns2/"), token))
                .isInstanceOf(InvalidPageTokenException.class)
                .hasMessageContaining("prefix");
        assertThatThrownBy(() -> new PageTokenCodec("dynamodb-v1", 1).decodeScanPosition(prefix, token))
                .isInstanceOf(InvalidPageTokenException.class)
                .hasMessageContaining("layout");
        byte[] raw = decode(token);
        for (int i = 0; i < raw.length; i++) {
            for (int bit = 0; bit < 8; bit++) {
                byte[] flipped = raw.clone();
                flipped[i] ^= (byte) (1 << bit);
                String forged = encode(flipped);
                assertThatThrownBy(() -> codec.decodeScanPosition(prefix, forged))
                        .isInstanceOf(InvalidPageTokenException.class);
            }
        }
    }

    @Test
    void forgedScanPositions_thatAreEmptyTooLongNotUtf8OrOfAnotherPartition_areRejected() {
        byte[][] positions = {
            new byte[0],
            "x".repeat(PageTokenCodec.MAX_SCAN_POSITION_BYTES + 1).getBytes(StandardCharsets.UTF_8),
            {(byte) 0xff},
            {(byte) 0xed, (byte) 0xa0, (byte) 0x80}
        };
        for (byte[] position : positions) {
            assertThatThrownBy(
                            () -> codec.decodeScanPosition(prefix, forge(bodyWithSuffix(2, position.length, position))))
                    .isInstanceOf(InvalidPageTokenException.class);
        }
        byte[] otherPartition = bodyWithSuffix(2, 1, new byte[] {'a'});
        ByteBuffer.wrap(otherPartition).putInt(1 + 4 + 8, 1);
        assertThatThrownBy(() -> codec.decodeScanPosition(prefix, forge(otherPartition)))
                .isInstanceOf(InvalidPageTokenException.class)
                .hasMessageContaining("partition");
        byte[] longer = bodyWithSuffix(2, 1, new byte[] {'a', 'b'});
        assertThatThrownBy(() -> codec.decodeScanPosition(prefix, forge(longer)))
                .isInstanceOf(InvalidPageTokenException.class)
                .hasMessageContaining("trailing");
    }

    @Test
    void decodingGarbageAsAScanPosition_eitherFailsTypedOrAnswersAWellFormedPosition() {
        Gen<String> forgedBodies = Generate.byteArrays(
                        integers().between(0, 60), Generate.bytes(Byte.MIN_VALUE, Byte.MAX_VALUE, (byte) 0))
                .map(tail -> forge(concat(header(prefix), tail)));
        Gen<String> forgedPositions = Generate.byteArrays(
                        integers().between(0, 40), Generate.bytes(Byte.MIN_VALUE, Byte.MAX_VALUE, (byte) 0))
                .map(position -> forge(bodyWithSuffix(2, position.length, position)));

        qt().withExamples(2000)
                .forAll(Generate.oneOf(strings().allPossible().ofLengthBetween(0, 80), forgedBodies, forgedPositions))
                .checkAssert(token -> {
                    String position;
                    try {
                        position = codec.decodeScanPosition(prefix, token);
                    } catch (InvalidPageTokenException expected) {
                        return;
                    }
                    assertThat(position).isNotEmpty();
                    assertThat(position.getBytes(StandardCharsets.UTF_8).length)
                            .isLessThanOrEqualTo(PageTokenCodec.MAX_SCAN_POSITION_BYTES);
                });
    }

    // --- helpers: forging tokens the way an attacker who read the codec's source could ----

    /**
     * Every other text that a lenient base64url decoder reads as the same bytes as {@code token}:
     * the last character with other unused low bits, and the token with its '=' padding.
     */
    private static List<String> sameBytesSpellings(String token) {
        List<String> spellings = new ArrayList<>();
        int unusedBits = switch (token.length() % 4) {
            case 2 -> 4;
            case 3 -> 2;
            default -> 0;
        };
        String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
        int last = alphabet.indexOf(token.charAt(token.length() - 1));
        for (int low = 1; low < (1 << unusedBits); low++) {
            spellings.add(token.substring(0, token.length() - 1) + alphabet.charAt(last ^ low));
        }
        if (unusedBits > 0) {
            spellings.add(token + "=".repeat(unusedBits / 2));
        }
        return spellings;
    }

    private static byte[] decode(String token) {
        return Base64.getUrlDecoder().decode(token);
    }

    private static String encode(byte[] raw) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(raw);
    }

    private static byte[] body(String token) {
        byte[] raw = decode(token);
        return Arrays.copyOf(raw, raw.length - CHECKSUM_BYTES);
    }

    /** version | layout digest | prefix digest | partition 0, as the codec writes them. */
    private byte[] header(KeyPrefix p) {
        return Arrays.copyOf(body(codec.encode(p, PageCursor.startOf(0))), 1 + 4 + 8 + 4);
    }

    private byte[] bodyWithSuffix(int flag, int declaredLength, byte[] suffix) {
        return bodyWithSuffix(prefix, flag, declaredLength, suffix);
    }

    private byte[] bodyWithSuffix(KeyPrefix p, int flag, int declaredLength, byte[] suffix) {
        ByteBuffer out = ByteBuffer.allocate(1 + 4 + 8 + 4 + 1 + 2 + suffix.length);
        out.put(header(p)).put((byte) flag).putShort((short) declaredLength).put(suffix);
        return out.array();
    }

    private static String forge(byte[] body) {
        return encode(concat(body, Arrays.copyOf(sha256(body), CHECKSUM_BYTES)));
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    private static byte[] sha256(byte[] data) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(data);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }
}
