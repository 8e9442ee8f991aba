package io.lake.meta.lease;

import io.lake.meta.MetaKey;
import java.util.Optional;

/**
 * Where a fenced store gets its authority to write: the lease key and the freshest valid guard.
 * {@link LeaderElection} is the implementation; tests may supply their own.
 *
 * @since 0.1.0
 */
public interface LeaseAuthority {

    /** The key the lease record lives under; fenced writes may never target it. */
    MetaKey leaseKey();

    /**
     * The freshest guard, or empty when no lease is held or its local deadline has passed
     * (fail closed).
     */
    Optional<LeaseGuard> currentGuard();

    /**
     * Told by a fenced store that the store rejected {@code guard}: the lease record no longer
     * holds its bytes. An authority still publishing that guard should stop doing so.
     */
    default void guardRejected(LeaseGuard guard) {}
}
