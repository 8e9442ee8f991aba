package io.lake.meta;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

class MetaKeyTest {

    private static void assertRejected(String text, String messagePart) {
        assertThatThrownBy(() -> MetaKey.of(text))
                .as("'%s'", text)
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining(messagePart);
    }

    @Test
    void of_splitsFamilyAndRest_atTheFirstSlash() {
        MetaKey key = MetaKey.of("tbl/ns1/orders");

        assertThat(key.family()).isEqualTo("tbl");
        assertThat(key.rest()).isEqualTo("ns1/orders");
        assertThat(key).hasToString("tbl/ns1/orders");
    }

    @Test
    void family_boundaries() {
        assertThat(MetaKey.of("f".repeat(32) + "/x").family()).hasSize(32);
        assertRejected("f".repeat(33) + "/x", "1 to 32 characters");
        assertRejected("/x", "of length 0");
        assertThat(MetaKey.of("a/x").family()).isEqualTo("a");
        assertThat(MetaKey.of("0_-9/x").family()).isEqualTo("0_-9");
    }

    @Test
    void family_characters() {
        assertRejected("_a/x", "starts with a letter or digit");
        assertRejected("-a/x", "starts with a letter or digit");
        assertRejected("Ab/x", "character 'A' at index 0");
        assertRejected("a.b/x", "character '.' at index 1");
        assertRejected("a b/x", "character ' '");
        assertRejected("\u00e9/x", "character");
    }

    @Test
    void rest_mustNotBeEmpty_butMayBeAnything() {
        assertRejected("tbl/", "nothing after the family");
        assertRejected("tbl", "has no family");
        assertRejected("", "has no family");
        assertThat(MetaKey.of("tbl//").rest()).isEqualTo("/");
        assertThat(MetaKey.of("tbl/\u0000").rest()).isEqualTo("\u0000");
    }

    @Test
    void surrogates_mustPair() {
        assertRejected("tbl/\ud83d", "lone high surrogate at index 4");
        assertRejected("tbl/\ud83dx", "lone high surrogate");
        assertRejected("tbl/\ude00", "lone low surrogate at index 4");
        assertRejected("tbl/\ude00\ud83d", "lone low surrogate");
        assertThat(MetaKey.of("tbl/\ud83d\ude00").utf8Length()).isEqualTo(8);
    }

    @Test
    void utf8Length_limitIs1024Bytes_notCharacters() {
        assertThat(MetaKey.of("tbl/" + "k".repeat(1020)).utf8Length()).isEqualTo(1024);
        assertRejected("tbl/" + "k".repeat(1021), "1025 bytes");
        assertThat(MetaKey.of("tbl/" + "\u00e9".repeat(510)).utf8Length()).isEqualTo(1024);
        assertRejected("tbl/k" + "\u00e9".repeat(510), "1025 bytes");
        assertThat(MetaKey.of("tbl/" + "\ud83d\ude00".repeat(255)).utf8Length()).isEqualTo(1024);
        assertRejected("tbl/" + "\u20ac".repeat(341), "1027 bytes");
    }

    @Test
    void null_isRejectedWithTheTypedError() {
        assertThatThrownBy(() -> MetaKey.of(null))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("null");
    }

    @Test
    void messages_abbreviateLongKeys() {
        assertThatThrownBy(() -> MetaKey.of("tbl/" + "k".repeat(2000)))
                .hasMessageContaining("...(2004 chars)")
                .satisfies(e -> assertThat(e.getMessage().length()).isLessThan(400));
    }

    @Test
    void utf8_isACopy() {
        MetaKey key = MetaKey.of("tbl/a");
        byte[] bytes = key.utf8();
        bytes[0] = 'X';

        assertThat(key.utf8()).isEqualTo("tbl/a".getBytes(StandardCharsets.UTF_8));
    }

    /** Pages decode ASCII keys in one pass over the bytes: it must keep exactly the rules of {@link MetaKey#of}. */
    @Test
    void fromUtf8_ofAsciiBytes_acceptsAndRefusesAsOfDoes() {
        Gen<String> text = lists().of(
                        Generate.pick(List.of('a', 'z', '0', '9', '_', '-', '/', 'A', '.', ' ', '\u007f')))
                .ofSizeBetween(0, 40)
                .map(chars -> {
                    StringBuilder b = new StringBuilder();
                    chars.forEach(b::append);
                    return b.toString();
                });
        qt().withExamples(5000).forAll(text).checkAssert(MetaKeyTest::assertDecodedAsOfDoes);
        for (String edge : List.of(
                "/",
                "a/",
                "/a",
                "a//",
                "_a/b",
                "a_/b",
                "-a/b",
                "a-/b",
                "a".repeat(32) + "/b",
                "a".repeat(33) + "/b",
                "t/" + "x".repeat(Limits.MAX_KEY_BYTES - 2),
                "t/" + "x".repeat(Limits.MAX_KEY_BYTES - 1))) {
            assertDecodedAsOfDoes(edge);
        }
    }

    private static void assertDecodedAsOfDoes(String text) {
        byte[] bytes = text.getBytes(StandardCharsets.US_ASCII);
        MetaKey expected;
        try {
            expected = MetaKey.of(text);
        } catch (InvalidArgumentException refused) {
            assertThatThrownBy(() -> MetaKey.fromUtf8(bytes))
                    .as("'%s'", text)
                    .isInstanceOf(InvalidArgumentException.class)
                    .hasMessage(refused.getMessage());
            return;
        }
        MetaKey decoded = MetaKey.fromUtf8(bytes);
        assertThat(decoded).as("'%s'", text).isEqualTo(expected);
        assertThat(decoded.family()).isEqualTo(expected.family());
        assertThat(decoded.rest()).isEqualTo(expected.rest());
        assertThat(decoded.utf8()).isEqualTo(bytes);
    }

    @Test
    void fromUtf8_roundTrips_andRefusesMalformedBytes() {
        MetaKey key = MetaKey.of("tbl/caf\u00e9/\ud83d\ude00");

        assertThat(MetaKey.fromUtf8(key.utf8())).isEqualTo(key);
        assertThatThrownBy(() -> MetaKey.fromUtf8(new byte[] {'t', '/', (byte) 0xff}))
                .isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> MetaKey.fromUtf8(new byte[] {'t', '/', (byte) 0xed, (byte) 0xa0, (byte) 0x80}))
                .as("an encoded lone surrogate")
                .isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> MetaKey.fromUtf8(new byte[] {'t', '/', (byte) 0xc0, (byte) 0xaf}))
                .as("an overlong encoding")
                .isInstanceOf(InvalidArgumentException.class);
    }

    @Test
    void equality_isByText() {
        assertThat(MetaKey.of("tbl/a")).isEqualTo(MetaKey.of("tbl/a")).hasSameHashCodeAs(MetaKey.of("tbl/a"));
        assertThat(MetaKey.of("tbl/a")).isNotEqualTo(MetaKey.of("tbl/b")).isNotEqualTo("tbl/a");
    }

    @Test
    void prefixContains_usesTheWholePrefixText() {
        assertThat(KeyPrefix.of("tbl/ns1/").contains(MetaKey.of("tbl/ns1/a"))).isTrue();
        assertThat(KeyPrefix.of("tbl/ns1/").contains(MetaKey.of("tbl/ns10/a"))).isFalse();
        assertThat(KeyPrefix.of("tbl/ns1").contains(MetaKey.of("tbl/ns10/a"))).isTrue();
        assertThat(KeyPrefix.of("tbl/").contains(MetaKey.of("tbl2/a"))).isFalse();
    }

    @Test
    void ordering_isUnsignedUtf8Bytes() {
        List<MetaKey> keys = new ArrayList<>(List.of(
                MetaKey.of("tbl/\ud83d\ude00"),
                MetaKey.of("tbl/\uffff"),
                MetaKey.of("tbl/\u00e9"),
                MetaKey.of("tbl/z"),
                MetaKey.of("tbl/Z"),
                MetaKey.of("tbl/" + "\u0000"),
                MetaKey.of("tbl/a/b"),
                MetaKey.of("tbl/a")));

        keys.sort(null);

        assertThat(keys)
                .extracting(MetaKey::toString)
                .containsExactly(
                        "tbl/\u0000",
                        "tbl/Z",
                        "tbl/a",
                        "tbl/a/b",
                        "tbl/z",
                        "tbl/\u00e9",
                        "tbl/\uffff",
                        "tbl/\ud83d\ude00");
    }

    @Test
    void ordering_agreesWithByteComparison_andEquality_forAnyValidKeys() {
        Gen<Integer> scalar = Generate.oneOf(
                integers().between(0, 0x7f),
                integers().between(0x80, 0xd7ff),
                integers().between(0xe000, 0xffff),
                integers().between(0x10000, 0x10ffff));
        Gen<String> rest = lists().of(scalar)
                .ofSizeBetween(1, 6)
                .map(cps -> cps.stream()
                        .collect(StringBuilder::new, StringBuilder::appendCodePoint, StringBuilder::append)
                        .toString());
        qt().withExamples(500).forAll(rest, rest).checkAssert((a, b) -> {
            MetaKey ka = MetaKey.of("t/" + a);
            MetaKey kb = MetaKey.of("t/" + b);
            int bytes = Integer.signum(Arrays.compareUnsigned(ka.utf8(), kb.utf8()));
            assertThat(Integer.signum(ka.compareTo(kb))).isEqualTo(bytes);
            assertThat(Integer.signum(kb.compareTo(ka))).isEqualTo(-bytes);
            assertThat(ka.compareTo(kb) == 0).isEqualTo(ka.equals(kb));
        });
    }
}
