package io.lake.meta.internal;

import io.lake.meta.InvalidArgumentException;
import org.jspecify.annotations.Nullable;

/**
 * The argument checks of the recipes, spelled once: a bad argument is the contract's typed
 * {@link InvalidArgumentException} naming it, thrown before any I/O.
 *
 * @since 0.1.0
 */
public final class Checks {

    private Checks() {}

    /**
     * Checks that argument {@code name} is not null.
     *
     * @return {@code value}
     * @throws InvalidArgumentException "{@code name} must not be null"
     */
    public static <T> T notNull(@Nullable T value, String name) {
        if (value == null) {
            throw new InvalidArgumentException(name + " must not be null");
        }
        return value;
    }

    /**
     * Checks that argument {@code name} is not negative.
     *
     * @return {@code value} (an epoch, a count)
     * @throws InvalidArgumentException if it is negative
     */
    public static long notNegative(long value, String name) {
        if (value < 0) {
            throw new InvalidArgumentException(name + " must be >= 0, got " + value);
        }
        return value;
    }
}
