package io.lake.meta;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.jspecify.annotations.Nullable;

/**
 * An immutable value of 0 to 256 KiB. Compare-and-set compares values byte for byte, and so
 * does {@link #equals(Object)}.
 *
 * @since 0.1.0
 */
public final class MetaValue {

    private static final MetaValue EMPTY = new MetaValue(new byte[0]);

    private final byte[] bytes;

    private MetaValue(byte[] bytes) {
        this.bytes = bytes;
    }

    /**
     * Copies {@code bytes} into a value.
     *
     * @throws InvalidArgumentException if {@code bytes} is null or larger than 256 KiB
     */
    public static MetaValue of(byte[] bytes) {
        requireValid(bytes);
        return bytes.length == 0 ? EMPTY : new MetaValue(bytes.clone());
    }

    /** As {@link #of}, keeping {@code bytes} itself, which the caller hands over (see {@link Entry#adopting}). */
    static MetaValue adopt(byte[] bytes) {
        requireValid(bytes);
        return bytes.length == 0 ? EMPTY : new MetaValue(bytes);
    }

    private static void requireValid(byte[] bytes) {
        if (bytes == null) {
            throw new InvalidArgumentException("value must not be null; use an empty value instead");
        }
        if (bytes.length > Limits.MAX_VALUE_BYTES) {
            throw new InvalidArgumentException("value is " + bytes.length + " bytes; the limit is "
                    + Limits.MAX_VALUE_BYTES + " bytes (256 KiB): keep large blobs elsewhere and store a reference");
        }
    }

    /**
     * The UTF-8 encoding of {@code text} as a value.
     *
     * @throws InvalidArgumentException if {@code text} is null, holds a lone surrogate (which has
     *     no UTF-8 encoding) or encodes to more than 256 KiB
     */
    public static MetaValue utf8(String text) {
        return of(Checks.wellFormedText(text, "value text").getBytes(StandardCharsets.UTF_8));
    }

    /** The empty value (zero bytes), which is a present value, unlike an absent key. */
    public static MetaValue empty() {
        return EMPTY;
    }

    /** A copy of the bytes. */
    public byte[] toByteArray() {
        return bytes.clone();
    }

    /** The bytes decoded as UTF-8 (malformed sequences replaced). */
    public String asUtf8() {
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /** Size in bytes. */
    public int size() {
        return bytes.length;
    }

    @Override
    public boolean equals(@Nullable Object o) {
        return o instanceof MetaValue && Arrays.equals(((MetaValue) o).bytes, bytes);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bytes);
    }

    /** A short, printable preview: the text when the value is printable UTF-8, else hex. */
    @Override
    public String toString() {
        String text = asUtf8();
        boolean printable = text.codePoints().allMatch(cp -> cp >= 0x20 && cp != 0x7f && cp != 0xfffd);
        if (printable) {
            return text.length() <= 80
                    ? '"' + text + '"'
                    : '"' + text.substring(0, 77) + "...\" (" + size() + " bytes)";
        }
        StringBuilder hex = new StringBuilder("0x");
        for (int i = 0; i < Math.min(bytes.length, 32); i++) {
            hex.append(String.format("%02x", bytes[i]));
        }
        return bytes.length <= 32 ? hex.toString() : hex + "... (" + size() + " bytes)";
    }
}
