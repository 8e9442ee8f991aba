package io.lake.meta.cli;

import java.nio.charset.Charset;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.StandardCharsets;
import java.nio.charset.UnsupportedCharsetException;

/**
 * Guards text arguments against a silent loss: under a non-UTF-8 locale (such as {@code LANG=C})
 * the JVM decodes non-ASCII argument bytes to U+FFFD, and writing that would store other bytes
 * than the user typed.
 */
final class Arguments {

    private static final char REPLACEMENT = '\uFFFD';

    private Arguments() {
    }

    /** {@code argument}, unless the JVM's argument decoding visibly lost some of it. */
    static String text(String argument, String what) {
        return text(argument, what, System.getProperty("sun.jnu.encoding", "UTF-8"));
    }

    static String text(String argument, String what, String argumentEncoding) {
        if (argument.indexOf(REPLACEMENT) >= 0 && !isUtf8(argumentEncoding)) {
            throw new UsageException(what + " holds U+FFFD: the JVM decoded the command line as "
                    + argumentEncoding + ", so its non-ASCII characters were lost; run under a UTF-8"
                    + " locale (for example LANG=C.UTF-8)" + (what.equals("KEY") || what.equals("--prefix")
                            ? "" : " or pass the value with --hex or --base64"));
        }
        return argument;
    }

    private static boolean isUtf8(String encoding) {
        try {
            return Charset.forName(encoding).equals(StandardCharsets.UTF_8);
        } catch (IllegalCharsetNameException | UnsupportedCharsetException e) {
            return false;
        }
    }
}
