package io.lake.meta.cli;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.Charset;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.StandardCharsets;
import java.nio.charset.UnsupportedCharsetException;
import java.util.List;
import java.util.Optional;

/**
 * Refuses command-line arguments whose text is not what their bytes spelled. The JVM decodes
 * argv before {@code main} runs, replacing what it cannot decode with U+FFFD: bytes that are not
 * UTF-8, and under a non-UTF-8 locale (such as {@code LANG=C}) every non-ASCII character. Used
 * as they are, two different byte strings would name one key, and a value would be stored with
 * other bytes than the user typed.
 *
 * <p>With the argument bytes at hand ({@link ArgvBytes}, Linux), every argument must be strict
 * UTF-8 and decode to exactly the string Java made of it. Without them, an argument holding
 * U+FFFD is refused: it cannot be told apart from bytes that were lost.
 */
final class Arguments {

    private static final char REPLACEMENT = '\uFFFD';

    private static final String FIX = "write keys, prefixes and paths as UTF-8 text, and values that are not"
            + " text with --hex or --base64";

    private final Optional<List<byte[]>> bytes;
    private final String argumentEncoding;

    private Arguments(Optional<List<byte[]>> bytes, String argumentEncoding) {
        this.bytes = bytes;
        this.argumentEncoding = argumentEncoding;
    }

    /** The rules for the arguments of this process's {@code main}. */
    static Arguments ofThisProcess(String[] args) {
        String encoding = System.getProperty("sun.jnu.encoding", "UTF-8");
        return new Arguments(ArgvBytes.ofThisProcess(args, encoding), encoding);
    }

    /** The rules for arguments that arrived as {@code bytes} (when known), decoded by the JVM with {@code argumentEncoding}. */
    static Arguments of(Optional<List<byte[]>> bytes, String argumentEncoding) {
        return new Arguments(bytes, argumentEncoding);
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
                        + (isUtf8(argumentEncoding) ? "holds U+FFFD, which is also what Java reads in place of bytes"
                                + " that are not UTF-8; on this platform lake-meta cannot see the bytes, so it refuses"
                                + " it: " + FIX : lostByLocale()));
            }
        }
    }

    private String lostByLocale() {
        return "holds non-ASCII text, but the JVM decoded the command line as " + argumentEncoding
                + " and lost it: run under a UTF-8 locale (for example LANG=C.UTF-8), or pass values with --hex"
                + " or --base64";
    }

    private static Optional<String> strictUtf8(byte[] raw) {
        try {
            return Optional.of(StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(raw)).toString());
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
        argument.chars().forEach(c -> text.append(c >= 0x20 && c < 0x7f && c != '\\' ? String.valueOf((char) c)
                : String.format("\\u%04X", c)));
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
