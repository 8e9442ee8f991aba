package io.lake.meta.lease;

import io.lake.meta.InvalidArgumentException;

/** The lease package's argument checks, failing with the contract's typed error. */
final class LeaseArguments {

    private LeaseArguments() {
    }

    static <T> T notNull(T value, String name) {
        if (value == null) {
            throw new InvalidArgumentException(name + " must not be null");
        }
        return value;
    }

    static long epoch(long epoch) {
        if (epoch < 0) {
            throw new InvalidArgumentException("epoch must be >= 0, got " + epoch);
        }
        return epoch;
    }

    static String holder(String holder) {
        if (notNull(holder, "holder").isEmpty()) {
            throw new InvalidArgumentException("holder must not be empty: it is the candidate id holding the lease");
        }
        return holder;
    }
}
