package io.lake.meta.cli;

import java.io.IOException;
import java.nio.charset.Charset;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.UnsupportedCharsetException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The bytes this process's arguments arrived as. Java decodes argv with {@code sun.jnu.encoding}
 * before {@code main} runs and turns bytes it cannot decode into U+FFFD, so the strings cannot
 * tell a typed U+FFFD from bytes that were not text. Linux keeps argv as the process received
 * it in {@code /proc/self/cmdline}: NUL-terminated entries, the JVM's own options first and
 * {@code main}'s arguments last (argument files and {@code JDK_JAVA_OPTIONS} are expanded only
 * before the main class, so they never shift that tail).
 */
final class ArgvBytes {

    private static final Path CMDLINE = Path.of("/proc/self/cmdline");

    private ArgvBytes() {
    }

    /**
     * {@code main}'s arguments as bytes, or empty when the platform does not tell (no
     * {@code /proc}) or what it tells does not match {@code args}.
     */
    static Optional<List<byte[]>> ofThisProcess(String[] args, String argumentEncoding) {
        byte[] cmdline;
        try {
            cmdline = Files.readAllBytes(CMDLINE);
        } catch (IOException | SecurityException | UnsupportedOperationException e) {
            return Optional.empty();
        }
        return match(cmdline, args, argumentEncoding);
    }

    /**
     * The last {@code args.length} entries of {@code cmdline}, when each decodes under the JVM's
     * argument encoding to exactly its argument: otherwise they are not the bytes {@code args}
     * came from.
     */
    static Optional<List<byte[]>> match(byte[] cmdline, String[] args, String argumentEncoding) {
        Charset decoding;
        try {
            decoding = Charset.forName(argumentEncoding);
        } catch (IllegalCharsetNameException | UnsupportedCharsetException e) {
            return Optional.empty();
        }
        List<byte[]> entries = entries(cmdline);
        if (entries.size() < args.length) {
            return Optional.empty();
        }
        List<byte[]> tail = entries.subList(entries.size() - args.length, entries.size());
        for (int i = 0; i < args.length; i++) {
            if (!new String(tail.get(i), decoding).equals(args[i])) {
                return Optional.empty();
            }
        }
        return Optional.of(List.copyOf(tail));
    }

    private static List<byte[]> entries(byte[] cmdline) {
        List<byte[]> entries = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < cmdline.length; i++) {
            if (cmdline[i] == 0) {
                entries.add(Arrays.copyOfRange(cmdline, start, i));
                start = i + 1;
            }
        }
        if (start < cmdline.length) {
            entries.add(Arrays.copyOfRange(cmdline, start, cmdline.length)); // no final NUL
        }
        return entries;
    }
}
