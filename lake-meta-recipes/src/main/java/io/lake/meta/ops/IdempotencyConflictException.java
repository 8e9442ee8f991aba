package io.lake.meta.ops;

import io.lake.meta.MetaStoreException;

/**
 * An operation id was reused for a different request: the journal recorded the operation with
 * another payload digest. Nothing was written. Not retryable: the client must use a new operation
 * id for a new request (or send the original payload again).
 *
 * @since 0.1.0
 */
public final class IdempotencyConflictException extends MetaStoreException {

    private final OperationRecord recorded;
    private final String requestDigest;

    /** {@code recorded} was begun with another payload than the one digested as {@code requestDigest}. */
    public IdempotencyConflictException(OperationRecord recorded, String requestDigest) {
        super(
                "operation " + recorded.id() + " was recorded ("
                        + recorded.state().wireName() + ") with payload digest '"
                        + recorded.payloadDigest() + "', but this request's digest is '" + requestDigest
                        + "': an operation id names one request; nothing was written. Use a new operation id for a new request");
        this.recorded = recorded;
        this.requestDigest = requestDigest;
    }

    /** What the journal holds for the operation. */
    public OperationRecord recorded() {
        return recorded;
    }

    /** The digest of the request that was refused. */
    public String requestDigest() {
        return requestDigest;
    }

    @Override
    public boolean retryable() {
        return false;
    }
}
