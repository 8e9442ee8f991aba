package io.lake.meta;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.jspecify.annotations.Nullable;

/**
 * A validated logical key {@code family/rest}.
 *
 * <ul>
 *   <li>the family (text before the first {@code /}) is 1 to 32 characters from
 *       {@code [a-z0-9_-]} and starts with a letter or digit;</li>
 *   <li>the rest is non-empty;</li>
 *   <li>the text is valid Unicode (no lone surrogates) and at most 1024 bytes in UTF-8.</li>
 * </ul>
 *
 * <p>Keys order by the unsigned bytes of their UTF-8 encoding. Immutable and thread-safe.
 *
 * @since 0.1.0
 */
public final class MetaKey implements Comparable<MetaKey> {

    private final String text;
    private final byte[] utf8;
    private final int familyLength;

    private MetaKey(String text, byte[] utf8) {
        this(text, utf8, text.indexOf('/'));
    }

    private MetaKey(String text, byte[] utf8, int familyLength) {
        this.text = text;
        this.utf8 = utf8;
        this.familyLength = familyLength;
    }

    /**
     * Validates and wraps a key.
     *
     * @throws InvalidArgumentException if the text breaks a key rule; the message names the rule
     */
    public static MetaKey of(String text) {
        return new MetaKey(text, KeyRules.validate("key", text, false));
    }

    /**
     * Decodes a key from its UTF-8 bytes, as a backend stores it.
     *
     * @throws InvalidArgumentException if the bytes are null, not valid UTF-8 or break a key rule
     */
    public static MetaKey fromUtf8(byte[] utf8) {
        Checks.notNull(utf8, "key bytes");
        return decode(utf8, true);
    }

    /** As {@link #fromUtf8}, keeping {@code utf8} itself, which the caller hands over (see {@link Entry#adopting}). */
    static MetaKey adoptUtf8(byte[] utf8) {
        Checks.notNull(utf8, "key bytes");
        return decode(utf8, false);
    }

    private static MetaKey decode(byte[] utf8, boolean copy) {
        int slash = KeyRules.asciiKeyFamilyLength(utf8);
        if (slash > 0) {
            // the common case, as pages decode every key they return: one pass over the bytes
            return new MetaKey(new String(utf8, StandardCharsets.ISO_8859_1), copy ? utf8.clone() : utf8, slash);
        }
        if (Utf8.isAscii(utf8)) {
            // an ASCII key that breaks a rule: the text checks name the rule
            String text = new String(utf8, StandardCharsets.ISO_8859_1);
            KeyRules.validateText("key", text, false);
            KeyRules.requireSize("key", text, utf8.length);
            return new MetaKey(text, copy ? utf8.clone() : utf8);
        }
        return of(Utf8.decodeStrict(utf8, "key"));
    }

    /** The family: the text before the first {@code /}. */
    public String family() {
        return text.substring(0, familyLength);
    }

    /** Everything after the family's {@code /}; never empty. */
    public String rest() {
        return text.substring(familyLength + 1);
    }

    /** A copy of the key's UTF-8 encoding. */
    public byte[] utf8() {
        return utf8.clone();
    }

    /** Length of the UTF-8 encoding in bytes. */
    public int utf8Length() {
        return utf8.length;
    }

    @Override
    public int compareTo(MetaKey other) {
        return Arrays.compareUnsigned(utf8, other.utf8);
    }

    @Override
    public boolean equals(@Nullable Object o) {
        return o instanceof MetaKey && ((MetaKey) o).text.equals(text);
    }

    @Override
    public int hashCode() {
        return text.hashCode();
    }

    /** The key's text, exactly as given to {@link #of(String)}. */
    @Override
    public String toString() {
        return text;
    }

    /** UTF-8 decoding that refuses malformed input instead of replacing it. */
    static final class Utf8 {
        private Utf8() {}

        static boolean isAscii(byte[] bytes) {
            for (byte b : bytes) {
                if (b < 0) {
                    return false;
                }
            }
            return true;
        }

        static String decodeStrict(byte[] bytes, String what) {
            Checks.notNull(bytes, what + " bytes");
            try {
                return StandardCharsets.UTF_8
                        .newDecoder()
                        .decode(java.nio.ByteBuffer.wrap(bytes))
                        .toString();
            } catch (java.nio.charset.CharacterCodingException e) {
                throw new InvalidArgumentException(what + " bytes are not valid UTF-8");
            }
        }
    }
}
