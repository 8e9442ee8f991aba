package io.lake.meta;

/**
 * The caller does not hold a valid lease (never acquired, expired, or taken over by another
 * node), so a fenced write was refused and nothing was written. Not retryable as is: campaign
 * for leadership again first.
 *
 * @since 0.1.0
 */
public final class FencedException extends MetaStoreException {

    /** A refusal explained by {@code message}. */
    public FencedException(String message) {
        super(message);
    }

    @Override
    public boolean retryable() {
        return false;
    }
}
