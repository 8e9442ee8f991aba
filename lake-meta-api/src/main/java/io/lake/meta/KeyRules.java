package io.lake.meta;

import java.nio.charset.StandardCharsets;

/** Validation shared by {@link MetaKey} and {@link KeyPrefix}; every failure is a typed error. */
final class KeyRules {

    private KeyRules() {}

    /**
     * Checks the family segment and the encoded size and returns the key's UTF-8 bytes.
     *
     * @param what "key" or "prefix", for messages
     * @param text the candidate
     * @param restMayBeEmpty whether nothing may follow the family's slash
     */
    static byte[] validate(String what, String text, boolean restMayBeEmpty) {
        validateText(what, text, restMayBeEmpty);
        byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
        requireSize(what, text, utf8.length);
        return utf8;
    }

    /** The rules of {@link #validate} but the size, which needs the encoding. */
    static void validateText(String what, String text, boolean restMayBeEmpty) {
        Checks.wellFormedText(text, what);
        int slash = text.indexOf('/');
        if (slash < 0) {
            throw new InvalidArgumentException(what + " '" + abbreviate(text)
                    + "' has no family: write it as family/rest, for example tbl/ns1/orders");
        }
        requireValidFamily(what, text, slash);
        if (!restMayBeEmpty && slash == text.length() - 1) {
            throw new InvalidArgumentException(what + " '" + abbreviate(text)
                    + "' has nothing after the family's '/': the rest of a key must not be empty");
        }
    }

    static void requireSize(String what, String text, int utf8Length) {
        if (utf8Length > Limits.MAX_KEY_BYTES) {
            throw new InvalidArgumentException(what + " '" + abbreviate(text) + "' is " + utf8Length
                    + " bytes in UTF-8; the limit is " + Limits.MAX_KEY_BYTES + " bytes");
        }
    }

    /**
     * The family's length when {@code utf8} is an ASCII key that keeps every key rule, else -1 (the
     * caller then checks it the slow way, which names the broken rule). The same rules as
     * {@link #validateText} and {@link #requireSize}, in one pass over the bytes, for the keys a
     * page decodes (ASCII text holds no surrogates, so it is well-formed).
     */
    static int asciiKeyFamilyLength(byte[] utf8) {
        if (utf8.length > Limits.MAX_KEY_BYTES) {
            return -1;
        }
        int slash = -1;
        for (int i = 0; i < utf8.length; i++) {
            byte b = utf8[i];
            if (b < 0) {
                return -1;
            }
            if (slash < 0) {
                if (b == '/') {
                    slash = i;
                } else if (!((b >= 'a' && b <= 'z') || (b >= '0' && b <= '9') || (i > 0 && (b == '_' || b == '-')))) {
                    return -1;
                }
            }
        }
        return slash > 0 && slash <= Limits.MAX_FAMILY_LENGTH && slash < utf8.length - 1 ? slash : -1;
    }

    /** The family is {@code text}'s first {@code length} characters; checked in place, copied only for a message. */
    static void requireValidFamily(String what, String text, int length) {
        if (length == 0 || length > Limits.MAX_FAMILY_LENGTH) {
            String family = text.substring(0, length);
            throw new InvalidArgumentException(what + " '" + abbreviate(text) + "' has family '"
                    + abbreviate(family) + "' of length " + family.length()
                    + ": a family is 1 to " + Limits.MAX_FAMILY_LENGTH + " characters from [a-z0-9_-]");
        }
        for (int i = 0; i < length; i++) {
            char c = text.charAt(i);
            boolean letterOrDigit = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
            if (!letterOrDigit && !(i > 0 && (c == '_' || c == '-'))) {
                throw new InvalidArgumentException(what + " '" + abbreviate(text) + "' has family '"
                        + text.substring(0, length) + "' with character '" + c + "' at index " + i
                        + ": a family uses [a-z0-9_-] and starts with a letter or digit");
            }
        }
    }

    static String abbreviate(String s) {
        return s.length() <= 64 ? s : s.substring(0, 60) + "...(" + s.length() + " chars)";
    }
}
