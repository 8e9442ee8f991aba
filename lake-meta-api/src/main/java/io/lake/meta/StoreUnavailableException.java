package io.lake.meta;

/**
 * The backend could not serve the call right now (throttling, network, a server error after
 * the client's own retries, a transaction conflict). Nothing was applied. Retry with backoff.
 */
public final class StoreUnavailableException extends MetaStoreException {

    public StoreUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }

    public StoreUnavailableException(String message) {
        super(message);
    }

    @Override
    public boolean retryable() {
        return true;
    }
}
