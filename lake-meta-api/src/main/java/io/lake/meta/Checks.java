package io.lake.meta;

import java.util.Optional;

/**
 * The argument checks of the contract's value objects, spelled once. Every value object checks
 * its arguments where it is made (a record in its compact constructor, a class in the one
 * constructor or factory its other factories go through) and refuses with the contract's typed
 * error, so a factory added later cannot skip a check or leak a {@link NullPointerException}.
 */
final class Checks {

    private Checks() {}

    static <T> T notNull(T value, String name) {
        if (value == null) {
            throw new InvalidArgumentException(name + " must not be null");
        }
        return value;
    }

    /** An {@link Optional} argument: never null, since {@link Optional#empty()} says "none". */
    static <T> Optional<T> notNull(Optional<T> value, String name) {
        if (value == null) {
            throw new InvalidArgumentException(name + " must not be null: pass Optional.empty() for none");
        }
        return value;
    }

    static long notNegative(long value, String name) {
        if (value < 0) {
            throw new InvalidArgumentException(name + " must not be negative, got " + value);
        }
        return value;
    }

    static double finiteNotNegative(double value, String name) {
        if (!(value >= 0) || Double.isInfinite(value)) {
            throw new InvalidArgumentException(name + " must be a finite number >= 0, got " + value);
        }
        return value;
    }

    /**
     * Refuses text that is not valid Unicode: a lone surrogate has no UTF-8 encoding, and
     * encoding it anyway would silently store {@code ?} instead.
     *
     * @param what names the text in the message: "key", "prefix", "value text"
     */
    static String wellFormedText(String text, String what) {
        notNull(text, what);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c)) {
                if (i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                    i++;
                    continue;
                }
                throw new InvalidArgumentException(
                        what + " has a lone high surrogate at index " + i + ": it must be valid Unicode text");
            }
            if (Character.isLowSurrogate(c)) {
                throw new InvalidArgumentException(
                        what + " has a lone low surrogate at index " + i + ": it must be valid Unicode text");
            }
        }
        return text;
    }
}
