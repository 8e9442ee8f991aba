package io.lake.meta.cli;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.StandardCharsets;
import java.nio.charset.UnsupportedCharsetException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Refuses command-line arguments whose text is not what their bytes spelled. The JVM decodes
 * argv with {@code sun.jnu.encoding} before {@code main} runs, replacing what it cannot decode
 * with U+FFFD: bytes that are not UTF-8, and under a non-UTF-8 locale (such as {@code LANG=C})
 * every non-ASCII character. Used as they are, two different byte strings would name one key, and
 * a value would be stored with other bytes than the user typed.
 *
 * <p>Where the argument bytes can be had (Linux keeps argv as the process received it in
 * {@code /proc/self/cmdline}), every argument must be strict UTF-8 and decode to exactly the
 * string Java made of it. Without them, an argument holding U+FFFD is refused: it cannot be told
 * apart from bytes that were lost.
 */
final class ArgvDecodingCheck {

    private static final char REPLACEMENT = '\uFFFD';

    private static final Path CMDLINE = Path.of("/proc/self/cmdline");

    private static final String FIX =
            "write keys, prefixes and paths as UTF-8 text, and values that are not" + " text with --hex or --base64";

    private final Optional<List<byte[]>> bytes;
    private final String argumentEncoding;

    private ArgvDecodingCheck(Optional<List<byte[]>> bytes, String argumentEncoding) {
        this.bytes = bytes;
        this.argumentEncoding = argumentEncoding;
    }

    /** The check of the arguments of this process's {@code main}. */
    static ArgvDecodingCheck ofThisProcess(String[] args) {
        String encoding = System.getProperty("sun.jnu.encoding", "UTF-8");
        return new ArgvDecodingCheck(argvBytes(args, encoding), encoding);
    }

    /** The check of arguments that arrived as {@code bytes} (when known), decoded by the JVM with {@code argumentEncoding}. */
    static ArgvDecodingCheck of(Optional<List<byte[]>> bytes, String argumentEncoding) {
        return new ArgvDecodingCheck(bytes, argumentEncoding);
    }

    /**
     * @throws UsageException naming the first argument that is not the text its bytes spelled
     */
    void requireText(List<String> args) {
        for (int i = 0; i < args.size(); i++) {
            String argument = args.get(i);
            String position = "argument " + (i + 1);
            if (bytes.isPresent()) {
                byte[] raw = bytes.get().get(i);
                Optional<String> strict = strictUtf8(raw);
                if (strict.isEmpty()) {
                    throw new UsageException(position + " (" + escaped(raw) + ") is not valid UTF-8 text, and Java"
                            + " would read other characters in its place: " + FIX);
                }
                if (!strict.get().equals(argument)) {
                    throw new UsageException(position + " (" + escaped(raw) + ") " + lostByLocale());
                }
            } else if (argument.indexOf(REPLACEMENT) >= 0) {
                throw new UsageException(position + " (" + escaped(argument) + ") "
                        + (isUtf8(argumentEncoding)
                                ? "holds U+FFFD, which is also what Java reads in place of bytes"
                                        + " that are not UTF-8; on this platform lake-meta cannot see the bytes, so it refuses"
                                        + " it: " + FIX
                                : lostByLocale()));
            }
        }
    }

    private String lostByLocale() {
        return "holds non-ASCII text, but the JVM decoded the command line as " + argumentEncoding
                + " and lost it: run under a UTF-8 locale (for example LANG=C.UTF-8), or pass values with --hex"
                + " or --base64";
    }

    /**
     * {@code main}'s arguments as bytes, or empty when the platform does not tell (no
     * {@code /proc}) or what it tells does not match {@code args}.
     */
    private static Optional<List<byte[]>> argvBytes(String[] args, String argumentEncoding) {
        byte[] cmdline;
        try {
            cmdline = Files.readAllBytes(CMDLINE);
        } catch (IOException | SecurityException | UnsupportedOperationException e) {
            return Optional.empty();
        }
        return match(cmdline, args, argumentEncoding);
    }

    /**
     * The last {@code args.length} entries of {@code cmdline} (NUL-terminated entries, the JVM's
     * own options first and {@code main}'s arguments last: argument files and
     * {@code JDK_JAVA_OPTIONS} are expanded only before the main class, so they never shift that
     * tail), when each decodes under the JVM's argument encoding to exactly its argument:
     * otherwise they are not the bytes {@code args} came from.
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

    private static Optional<String> strictUtf8(byte[] raw) {
        try {
            return Optional.of(StandardCharsets.UTF_8
                    .newDecoder()
                    .decode(ByteBuffer.wrap(raw))
                    .toString());
        } catch (CharacterCodingException e) {
            return Optional.empty();
        }
    }

    /** Printable ASCII as it is, every other byte as {@code \xNN}: as a shell's $'...' would write it. */
    private static String escaped(byte[] raw) {
        StringBuilder text = new StringBuilder();
        for (byte b : raw) {
            if (b >= 0x20 && b < 0x7f && b != '\\') {
                text.append((char) b);
            } else {
                text.append(String.format("\\x%02x", b & 0xff));
            }
        }
        return text.toString();
    }

    /** Printable ASCII as it is, every other character as {@code \\uNNNN}. */
    private static String escaped(String argument) {
        StringBuilder text = new StringBuilder();
        argument.chars()
                .forEach(c -> text.append(
                        c >= 0x20 && c < 0x7f && c != '\\' ? String.valueOf((char) c) : String.format("\\u%04X", c)));
        return text.toString();
    }

    private static boolean isUtf8(String encoding) {
        try {
            return Charset.forName(encoding).equals(StandardCharsets.UTF_8);
        } catch (IllegalCharsetNameException | UnsupportedCharsetException e) {
            return false;
        }
    }
}
