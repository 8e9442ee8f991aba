package io.lake.meta.lease;

import io.lake.meta.MetaKey;
import io.lake.meta.MetaStoreException;

/**
 * The lease record is at the largest epoch ({@link Long#MAX_VALUE}), so no candidate may acquire
 * it: a new term would need an epoch that cannot be written. The election fails closed: the
 * record is left unchanged and nobody leads through this key again. Not retryable.
 *
 * @since 0.1.0
 */
public final class LeaseEpochExhaustedException extends MetaStoreException {

    /** The lease at {@code leaseKey} is at the maximum epoch: no new term can start. */
    public LeaseEpochExhaustedException(MetaKey leaseKey) {
        super("lease '" + leaseKey + "' is at the maximum epoch " + Long.MAX_VALUE
                + ": nobody can acquire it any more, because the next term's epoch would overflow;"
                + " the record was left unchanged. Move the election to a new lease key (and make"
                + " everything that compares epochs aware of the new key)");
    }

    @Override
    public boolean retryable() {
        return false;
    }
}
