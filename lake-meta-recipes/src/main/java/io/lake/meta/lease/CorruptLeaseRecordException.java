package io.lake.meta.lease;

import io.lake.meta.MetaKey;
import io.lake.meta.MetaStoreException;

/**
 * The lease key holds bytes that are not a lease record (not JSON, a negative or non-integral
 * epoch, a holder without an expiry...). The election fails closed: it neither acquires nor
 * overwrites the record, so nobody leads until an operator repairs or replaces it. Not retryable.
 *
 * @since 0.1.0
 */
public final class CorruptLeaseRecordException extends MetaStoreException {

    /** {@code leaseKey} holds no lease record: {@code problem} says why. */
    public CorruptLeaseRecordException(MetaKey leaseKey, String problem) {
        super("lease '" + leaseKey + "' holds an unreadable lease record (" + problem
                + "): nobody can acquire it until an operator repairs the record; it was left unchanged");
    }

    @Override
    public boolean retryable() {
        return false;
    }
}
