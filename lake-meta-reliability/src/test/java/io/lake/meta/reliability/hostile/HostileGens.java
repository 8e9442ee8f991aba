package io.lake.meta.reliability.hostile;

import static org.quicktheories.generators.SourceDSL.lists;

import io.lake.meta.Limits;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.quicktheories.api.Pair;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

/**
 * QuickTheories generators of hostile input: text built from the pieces that break things (the
 * physical layout's {@code #} and {@code /}, NUL, lone surrogates, combining marks, byte-order
 * marks, upper case in a family, spaces), texts at and past the 1 024-byte key limit and the
 * 32-character family limit in one-, two- and four-byte characters, byte arrays that are not
 * UTF-8, values at and past 256 KiB, limits at their edges, and nulls.
 */
final class HostileGens {

    static final List<String> PIECES = List.of(
            "tbl",
            "a",
            "z9",
            "lease",
            "/",
            "//",
            "#",
            "##",
            "#layout",
            "\u0000",
            "\uD800",
            "\uDBFF",
            "\uDC00",
            "\uDFFF",
            "\uD83D\uDE00",
            "\u00E9",
            "e\u0301",
            "\uFEFF",
            "\uFFFE",
            "\uFFFF",
            "\u200B",
            " ",
            "\t",
            "\n",
            "TBL",
            "Tbl",
            "-",
            "_",
            "-a",
            "_a",
            "..",
            ".",
            "%2F",
            "=",
            "+",
            "\\",
            "\"",
            "'",
            "lake-meta",
            "x".repeat(40),
            "\u0085",
            "\u2028");

    private HostileGens() {}

    /** Texts at and around every edge a key, a prefix or a family has. */
    static List<String> boundaryTexts() {
        List<String> texts = new ArrayList<>();
        for (int n = Limits.MAX_KEY_BYTES - 6; n <= Limits.MAX_KEY_BYTES - 3; n++) {
            texts.add("tbl/" + "a".repeat(n)); // 1 022 .. 1 025 bytes
        }
        texts.add("tbl/" + "\u00E9".repeat(510)); // 1 024 bytes in two-byte characters
        texts.add("tbl/" + "\u00E9".repeat(511));
        texts.add("tbl/" + "\uD83D\uDE00".repeat(255)); // 1 024 bytes in four-byte characters
        texts.add("tbl/" + "\uD83D\uDE00".repeat(256));
        texts.add("tbl/" + "\uD83D\uDE00".repeat(254) + "\uD83D"); // ends in half a pair
        texts.add("f".repeat(Limits.MAX_FAMILY_LENGTH) + "/k");
        texts.add("f".repeat(Limits.MAX_FAMILY_LENGTH + 1) + "/k");
        texts.add("tbl/");
        texts.add("/k");
        texts.add("");
        texts.add("tbl");
        texts.add("tbl/k#0");
        texts.add("tbl#0/k");
        texts.add("#layout/k");
        texts.add("\u0000lake-meta/format");
        texts.add("tbl/\u0000");
        texts.add("tbl/\uDC00\uD800");
        return texts;
    }

    /** Hostile text: pieces joined, shaped like family/rest or not, edges, and null. */
    static Gen<String> text() {
        Gen<String> pieces =
                lists().of(Generate.pick(PIECES)).ofSizeBetween(0, 6).map(l -> String.join("", l));
        Gen<String> keyShaped = pieces.zip(pieces, (a, b) -> a + "/" + b);
        Gen<String> familyShaped =
                Generate.pick(List.of("tbl", "a", "lease", "z9-x_")).zip(pieces, (a, b) -> a + "/" + b);
        return Generate.frequency(List.of(
                Pair.of(4, keyShaped),
                Pair.of(3, familyShaped),
                Pair.of(2, pieces),
                Pair.of(2, Generate.pick(boundaryTexts())),
                Pair.of(1, Generate.constant((String) null))));
    }

    /** Byte arrays: empty, random (mostly not UTF-8), a valid key's bytes, overlong and surrogate encodings, null. */
    static Gen<byte[]> bytes() {
        Gen<byte[]> random =
                Generate.byteArrays(Generate.range(0, 40), Generate.bytes(Byte.MIN_VALUE, Byte.MAX_VALUE, (byte) 0));
        Gen<byte[]> crafted = Generate.pick(List.of(
                new byte[0],
                "tbl/k".getBytes(StandardCharsets.UTF_8),
                new byte[] {'t', 'b', 'l', '/', (byte) 0xED, (byte) 0xA0, (byte) 0x80}, // an encoded lone surrogate
                new byte[] {'t', 'b', 'l', '/', (byte) 0xC0, (byte) 0xAF}, // an overlong '/'
                new byte[] {'t', 'b', 'l', '/', (byte) 0xFF},
                new byte[] {'t', 'b', 'l', '/', 0}));
        return Generate.frequency(
                List.of(Pair.of(3, random), Pair.of(2, crafted), Pair.of(1, Generate.constant((byte[]) null))));
    }

    /** Value sizes at and past the limit, and small ones. */
    static Gen<Integer> valueSizes() {
        return Generate.pick(List.of(
                0,
                1,
                7,
                Limits.MAX_VALUE_BYTES - 1,
                Limits.MAX_VALUE_BYTES,
                Limits.MAX_VALUE_BYTES + 1,
                Limits.MAX_VALUE_BYTES * 2));
    }

    /** Limits at and past every edge. */
    static Gen<Integer> limits() {
        return Generate.pick(List.of(
                Integer.MIN_VALUE, -1, 0, 1, 2, Limits.MAX_PAGE_LIMIT, Limits.MAX_PAGE_LIMIT + 1, Integer.MAX_VALUE));
    }

    /** Text that looks like a token: random base64 of random bytes, junk, empty, whitespace, null. */
    static Gen<String> tokenish() {
        Gen<String> base64 = Generate.byteArrays(
                        Generate.range(0, 60), Generate.bytes(Byte.MIN_VALUE, Byte.MAX_VALUE, (byte) 0))
                .map(b -> Base64.getUrlEncoder().withoutPadding().encodeToString(b));
        return Generate.frequency(List.of(
                Pair.of(4, base64),
                Pair.of(2, text()),
                Pair.of(1, Generate.pick(List.of("", " ", "=", "====", "AAAA", "%00", "\u0000")))));
    }
}
