package io.lake.meta;

import org.jspecify.annotations.Nullable;

/**
 * A write was sent and may or may not have applied: its answer was lost, or it (or an earlier
 * attempt of the same call) was answered with a server error, which does not prove that nothing
 * applied. Re-read the key and decide; repeating the same compare-and-set blindly could report a conflict for a write
 * that in fact applied, so this error is not marked retryable.
 *
 * @since 0.1.0
 */
public final class OutcomeUnknownException extends MetaStoreException {

    /** A write whose outcome is unknown, explained by {@code message}; {@code cause} may be null. */
    public OutcomeUnknownException(String message, @Nullable Throwable cause) {
        super(message, cause);
    }

    @Override
    public boolean retryable() {
        return false;
    }
}
