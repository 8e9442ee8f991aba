package io.lake.meta.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Matching /proc/self/cmdline's entries to main's arguments. */
class ArgvBytesTest {

    private static byte[] cmdline(byte[]... entries) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] entry : entries) {
            out.writeBytes(entry);
            out.write(0);
        }
        return out.toByteArray();
    }

    private static byte[] b(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void theLastEntries_areTheArguments_emptyOnesIncluded() {
        byte[] bad = {'k', (byte) 0xff};
        byte[] line = cmdline(b("java"), b("-Dx=y"), b("-jar"), b("lake-meta.jar"), b("get"), b(""), bad);

        Optional<List<byte[]>> args = ArgvBytes.match(line, new String[] {"get", "", "k\uFFFD"}, "UTF-8");

        assertThat(args).hasValueSatisfying(bytes -> assertThat(bytes).containsExactly(b("get"), b(""), bad));
    }

    @Test
    void entriesThatDoNotDecodeToTheArguments_areNotTheirBytes() {
        byte[] line = cmdline(b("java"), b("Main"), b("get"), b("tbl/a"));

        assertThat(ArgvBytes.match(line, new String[] {"get", "tbl/b"}, "UTF-8")).isEmpty();
        assertThat(ArgvBytes.match(line, new String[] {"x", "y", "get", "tbl/a", "z"}, "UTF-8")).isEmpty();
        assertThat(ArgvBytes.match(line, new String[] {"get", "tbl/a"}, "no-such-charset")).isEmpty();
    }

    @Test
    void noArguments_matchTrivially() {
        assertThat(ArgvBytes.match(cmdline(b("java"), b("Main")), new String[0], "UTF-8")).hasValue(List.of());
    }
}
