package io.lake.meta;

/** Argument checks that fail with the contract's typed error. */
final class Checks {

    private Checks() {
    }

    static <T> T notNull(T value, String name) {
        if (value == null) {
            throw new InvalidArgumentException(name + " must not be null");
        }
        return value;
    }
}
