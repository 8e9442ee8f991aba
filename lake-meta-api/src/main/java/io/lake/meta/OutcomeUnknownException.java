package io.lake.meta;

/**
 * A write was sent but its answer was lost: it may or may not have applied. Re-read the key
 * and decide; repeating the same compare-and-set blindly could report a conflict for a write
 * that in fact applied, so this error is not marked retryable.
 */
public final class OutcomeUnknownException extends MetaStoreException {

    public OutcomeUnknownException(String message, Throwable cause) {
        super(message, cause);
    }

    @Override
    public boolean retryable() {
        return false;
    }
}
