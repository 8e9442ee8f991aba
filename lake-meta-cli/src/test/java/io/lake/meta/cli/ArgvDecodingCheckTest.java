package io.lake.meta.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The rules on decoded arguments, with and without their bytes, and matching /proc/self/cmdline's
 * entries to main's arguments ({@link RawArgumentBytesTest} runs them for real).
 */
class ArgvDecodingCheckTest {

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void withBytes_validUtf8_passes_evenATypedReplacementCharacter() {
        ArgvDecodingCheck arguments = ArgvDecodingCheck.of(
                Optional.of(List.of(utf8("get"), utf8("tbl/caf\u00e9"), utf8("a\uFFFDb"))), "UTF-8");

        assertThatCode(() -> arguments.requireText(List.of("get", "tbl/caf\u00e9", "a\uFFFDb")))
                .doesNotThrowAnyException();
    }

    @Test
    void withBytes_invalidUtf8_isRefusedNamingTheArgumentAndItsBytes() {
        byte[] surrogate = {'t', 'b', 'l', '/', (byte) 0xed, (byte) 0xa0, (byte) 0x80};
        ArgvDecodingCheck arguments = ArgvDecodingCheck.of(Optional.of(List.of(utf8("get"), surrogate)), "UTF-8");

        assertThatThrownBy(() -> arguments.requireText(List.of("get", new String(surrogate, StandardCharsets.UTF_8))))
                .isInstanceOf(UsageException.class)
                .hasMessage("argument 2 (tbl/\\xed\\xa0\\x80) is not valid UTF-8 text, and Java would read other"
                        + " characters in its place: write keys, prefixes and paths as UTF-8 text, and values that are"
                        + " not text with --hex or --base64");
    }

    @Test
    void withBytes_textTheLocaleCouldNotDecode_isRefusedWithTheLocaleFix() {
        ArgvDecodingCheck arguments =
                ArgvDecodingCheck.of(Optional.of(List.of(utf8("tbl/caf\u00e9"))), "ANSI_X3.4-1968");

        assertThatThrownBy(() -> arguments.requireText(List.of("tbl/caf\uFFFD\uFFFD")))
                .isInstanceOf(UsageException.class)
                .hasMessage("argument 1 (tbl/caf\\xc3\\xa9) holds non-ASCII text, but the JVM decoded the command line"
                        + " as ANSI_X3.4-1968 and lost it: run under a UTF-8 locale (for example LANG=C.UTF-8), or"
                        + " pass values with --hex or --base64");
    }

    @Test
    void withoutBytes_asciiAndNonAsciiText_pass() {
        assertThatCode(() -> ArgvDecodingCheck.of(Optional.empty(), "UTF-8").requireText(List.of("tbl/caf\u00e9", "v")))
                .doesNotThrowAnyException();
        assertThatCode(() -> ArgvDecodingCheck.of(Optional.empty(), "ANSI_X3.4-1968")
                        .requireText(List.of("tbl/sales/orders")))
                .doesNotThrowAnyException();
    }

    @Test
    void withoutBytes_aReplacementCharacter_isRefused_becauseItMayStandForLostBytes() {
        assertThatThrownBy(() ->
                        ArgvDecodingCheck.of(Optional.empty(), "UTF-8").requireText(List.of("put", "tbl/a\uFFFD")))
                .isInstanceOf(UsageException.class)
                .hasMessageStartingWith("argument 2 (tbl/a\\uFFFD) holds U+FFFD, which is also what Java reads in"
                        + " place of bytes that are not UTF-8");
        assertThatThrownBy(() ->
                        ArgvDecodingCheck.of(Optional.empty(), "ANSI_X3.4-1968").requireText(List.of("caf\uFFFD")))
                .isInstanceOf(UsageException.class)
                .hasMessageContaining("decoded the command line as ANSI_X3.4-1968 and lost it")
                .hasMessageContaining("LANG=C.UTF-8");
        assertThatThrownBy(() -> ArgvDecodingCheck.of(Optional.empty(), "no-such-charset")
                        .requireText(List.of("caf\uFFFD")))
                .isInstanceOf(UsageException.class)
                .hasMessageContaining("LANG=C.UTF-8");
    }

    private static byte[] cmdline(byte[]... entries) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] entry : entries) {
            out.writeBytes(entry);
            out.write(0);
        }
        return out.toByteArray();
    }

    @Test
    void theLastEntriesOfTheCmdline_areTheArguments_emptyOnesIncluded() {
        byte[] bad = {'k', (byte) 0xff};
        byte[] line =
                cmdline(utf8("java"), utf8("-Dx=y"), utf8("-jar"), utf8("lake-meta.jar"), utf8("get"), utf8(""), bad);

        Optional<List<byte[]>> args = ArgvDecodingCheck.match(line, new String[] {"get", "", "k\uFFFD"}, "UTF-8");

        assertThat(args).hasValueSatisfying(bytes -> assertThat(bytes).containsExactly(utf8("get"), utf8(""), bad));
    }

    @Test
    void cmdlineEntriesThatDoNotDecodeToTheArguments_areNotTheirBytes() {
        byte[] line = cmdline(utf8("java"), utf8("Main"), utf8("get"), utf8("tbl/a"));

        assertThat(ArgvDecodingCheck.match(line, new String[] {"get", "tbl/b"}, "UTF-8"))
                .isEmpty();
        assertThat(ArgvDecodingCheck.match(line, new String[] {"x", "y", "get", "tbl/a", "z"}, "UTF-8"))
                .isEmpty();
        assertThat(ArgvDecodingCheck.match(line, new String[] {"get", "tbl/a"}, "no-such-charset"))
                .isEmpty();
    }

    @Test
    void noArguments_matchTheCmdlineTrivially() {
        assertThat(ArgvDecodingCheck.match(cmdline(utf8("java"), utf8("Main")), new String[0], "UTF-8"))
                .hasValue(List.of());
    }
}
