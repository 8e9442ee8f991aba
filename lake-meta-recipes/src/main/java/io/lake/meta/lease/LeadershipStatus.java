package io.lake.meta.lease;

import io.lake.meta.internal.Checks;

/**
 * Who holds a lease, as one candidate sees it. A negative epoch or a null or empty holder is an invalid argument.
 *
 * @since 0.1.0
 */
public sealed interface LeadershipStatus {

    /** The epoch of the record seen: the current term, or the last one for a vacant lease. */
    long epoch();

    /**
     * This candidate holds the lease in term {@code epoch} and its local deadline has not passed.
     *
     * @since 0.1.0
     */
    record Leader(long epoch) implements LeadershipStatus {
        public Leader {
            Checks.notNegative(epoch, "epoch");
        }
    }

    /**
     * Another holder (or a stale incarnation of this candidate) holds an unexpired lease.
     *
     * @param holder the holder's candidate id
     * @param epoch the holder's term
     * @since 0.1.0
     */
    record Follower(String holder, long epoch) implements LeadershipStatus {
        public Follower {
            LeaseRecord.requireHolder(holder);
            Checks.notNegative(epoch, "epoch");
        }
    }

    /**
     * Nobody holds an unexpired lease: the key is absent, vacant after a resign, or expired.
     *
     * @param epoch the last term recorded (0 when the key is absent or legacy)
     * @since 0.1.0
     */
    record Vacant(long epoch) implements LeadershipStatus {
        public Vacant {
            Checks.notNegative(epoch, "epoch");
        }
    }
}
