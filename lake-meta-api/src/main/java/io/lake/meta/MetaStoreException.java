package io.lake.meta;

import org.jspecify.annotations.Nullable;

/**
 * Root of every error a {@link MetaStore} or a recipe built on it throws.
 *
 * <p>All errors are unchecked. {@link #retryable()} tells whether repeating the same call,
 * unchanged, may succeed. A compare-and-set miss is never an exception: it is a
 * {@link WriteResult} or {@link GuardedResult}.
 *
 * @since 0.1.0
 */
public abstract class MetaStoreException extends RuntimeException {

    /** An error explained by {@code message}. */
    protected MetaStoreException(String message) {
        super(message);
    }

    /** An error explained by {@code message}, caused by {@code cause} (null when unknown). */
    protected MetaStoreException(String message, @Nullable Throwable cause) {
        super(message, cause);
    }

    /**
     * Whether repeating the same call, unchanged, may succeed.
     *
     * @return true for transient failures such as throttling or a held write barrier
     */
    public abstract boolean retryable();
}
