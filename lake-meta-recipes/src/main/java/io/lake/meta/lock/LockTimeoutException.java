package io.lake.meta.lock;

import io.lake.meta.MetaKey;
import io.lake.meta.MetaStoreException;
import java.time.Duration;

/**
 * {@link FencedLock#acquire(Duration)} did not get the lock before its timeout: someone else held
 * it the whole time (or the store kept failing). Nothing of this caller's is left in the store.
 * Retryable: try again later.
 *
 * @since 0.1.0
 */
public final class LockTimeoutException extends MetaStoreException {

    /** {@code key} was not acquired within {@code timeout}; {@code lastSeen} describes its holder then. */
    public LockTimeoutException(MetaKey key, Duration timeout, String lastSeen) {
        super("lock '" + key + "' was not acquired within " + timeout + " (" + lastSeen
                + "); nothing was written: acquire again later, or with a longer timeout");
    }

    @Override
    public boolean retryable() {
        return true;
    }
}
