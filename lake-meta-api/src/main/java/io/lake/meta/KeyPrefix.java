package io.lake.meta;

import org.jspecify.annotations.Nullable;

/**
 * A validated prefix for page reads. It starts with a full family segment ({@code tbl/},
 * {@code tbl/ns1/}, {@code tbl/ns1/t}), so a page can never cross into another family.
 * Immutable and thread-safe.
 *
 * @since 0.1.0
 */
public final class KeyPrefix {

    private final String text;
    private final byte[] utf8;

    private KeyPrefix(String text, byte[] utf8) {
        this.text = text;
        this.utf8 = utf8;
    }

    /**
     * Validates and wraps a prefix.
     *
     * @throws InvalidArgumentException if the prefix does not start with {@code family/}, has a
     *     lone surrogate or is over 1024 bytes in UTF-8
     */
    public static KeyPrefix of(String text) {
        return new KeyPrefix(text, KeyRules.validate("prefix", text, true));
    }

    /**
     * The whole family {@code family/}.
     *
     * @throws InvalidArgumentException if {@code family} is null, holds a {@code /} (it names one
     *     family; use {@link #of(String)} for a longer prefix) or breaks a family rule
     */
    public static KeyPrefix family(String family) {
        Checks.notNull(family, "family");
        if (family.indexOf('/') >= 0) {
            throw new InvalidArgumentException("family '" + KeyRules.abbreviate(family) + "' holds a '/': pass one"
                    + " family name, such as tbl, or use KeyPrefix.of for a longer prefix such as tbl/ns1/");
        }
        return of(family + "/");
    }

    /** The family the prefix lies in. */
    public String family() {
        return text.substring(0, text.indexOf('/'));
    }

    /** A copy of the prefix's UTF-8 encoding. */
    public byte[] utf8() {
        return utf8.clone();
    }

    /** Whether {@code key} lies under this prefix. */
    public boolean contains(MetaKey key) {
        return Checks.notNull(key, "key").toString().startsWith(text);
    }

    @Override
    public boolean equals(@Nullable Object o) {
        return o instanceof KeyPrefix && ((KeyPrefix) o).text.equals(text);
    }

    @Override
    public int hashCode() {
        return text.hashCode();
    }

    @Override
    public String toString() {
        return text;
    }
}
