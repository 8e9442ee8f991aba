package io.lake.meta;

/**
 * A key, value, prefix, limit or option broke a rule of the contract. Thrown before any I/O;
 * nothing was read or written. Not retryable: fix the argument.
 *
 * @since 0.1.0
 */
public class InvalidArgumentException extends MetaStoreException {

    /** An argument that broke the rule {@code message} names. */
    public InvalidArgumentException(String message) {
        super(message);
    }

    @Override
    public boolean retryable() {
        return false;
    }
}
