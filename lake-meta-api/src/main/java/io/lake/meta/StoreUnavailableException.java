package io.lake.meta;

import org.jspecify.annotations.Nullable;

/**
 * The backend could not serve the call right now, and nothing was applied: a read that failed
 * (throttling, network, a server error after the client's own retries), or a write the backend
 * refused before it could apply (throttling, a transaction conflict). Retry with backoff. A write
 * that may have applied is never this error but {@link OutcomeUnknownException}.
 *
 * @since 0.1.0
 */
public final class StoreUnavailableException extends MetaStoreException {

    /** A refusal explained by {@code message}, caused by {@code cause} (null when unknown). */
    public StoreUnavailableException(String message, @Nullable Throwable cause) {
        super(message, cause);
    }

    /** A refusal explained by {@code message}. */
    public StoreUnavailableException(String message) {
        super(message);
    }

    @Override
    public boolean retryable() {
        return true;
    }
}
