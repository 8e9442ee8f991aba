package io.lake.meta.registry;

import io.lake.meta.InvalidArgumentException;

/** Argument checks that fail with the contract's typed error, before any I/O. */
final class Arguments {

    private Arguments() {
    }

    static <T> T notNull(T value, String name) {
        if (value == null) {
            throw new InvalidArgumentException(name + " must not be null");
        }
        return value;
    }
}
