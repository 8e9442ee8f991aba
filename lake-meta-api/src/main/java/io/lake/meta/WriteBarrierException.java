package io.lake.meta;

/**
 * A maintenance write barrier (for example the finalize window of a layout migration) is
 * held; nothing was written. Retry after a short backoff.
 *
 * @since 0.1.0
 */
public final class WriteBarrierException extends MetaStoreException {

    /** A write refused by the barrier {@code message} describes. */
    public WriteBarrierException(String message) {
        super(message);
    }

    @Override
    public boolean retryable() {
        return true;
    }
}
