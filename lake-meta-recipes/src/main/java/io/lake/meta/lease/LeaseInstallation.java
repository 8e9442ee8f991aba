package io.lake.meta.lease;

import io.lake.meta.MetaKey;
import io.lake.meta.MetaValue;

/**
 * Lease bytes this election wrote (or may have written: the answer was lost), with the term they
 * belong to and the local deadline counted from before they were sent.
 */
record LeaseInstallation(MetaValue bytes, long epoch, long deadlineNanos) {

    /** Whether the local deadline has passed at ticker reading {@code nowNanos} (overflow-safe). */
    boolean expiredAt(long nowNanos) {
        return nowNanos - deadlineNanos >= 0;
    }

    /** The guard a fenced store sends while these bytes are the lease. */
    LeaseGuard guardUnder(MetaKey leaseKey) {
        return new LeaseGuard(leaseKey, bytes, epoch, deadlineNanos);
    }
}
