package io.lake.meta;

/**
 * A page token was malformed, tampered with, of another token version, or issued for another
 * prefix, backend, layout or shard count. Nothing was read. Start again from the first page.
 *
 * @since 0.1.0
 */
public final class InvalidPageTokenException extends InvalidArgumentException {

    /** A token refused for the reason {@code message} gives. */
    public InvalidPageTokenException(String message) {
        super(message);
    }
}
