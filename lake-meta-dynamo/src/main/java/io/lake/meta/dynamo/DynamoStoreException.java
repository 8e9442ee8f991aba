package io.lake.meta.dynamo;

import io.lake.meta.MetaStoreException;

/**
 * DynamoDB answered in a way the store cannot map to a result or to a retryable failure: a
 * missing or incompatible table, missing IAM permissions, a request DynamoDB rejected, an
 * unknown transaction cancellation reason, or an item lake-meta did not write. The message
 * carries DynamoDB's error code and says what to check. Not retryable: repeating the call
 * unchanged gives the same answer. An unknown answer is never reported as a conflict.
 *
 * @since 0.1.0
 */
public class DynamoStoreException extends MetaStoreException {

    /** A DynamoDB answer the store cannot map, explained by {@code message}. */
    public DynamoStoreException(String message) {
        super(message);
    }

    /** A DynamoDB answer the store cannot map, explained by {@code message}, caused by {@code cause}. */
    public DynamoStoreException(String message, Throwable cause) {
        super(message, cause);
    }

    @Override
    public boolean retryable() {
        return false;
    }
}
