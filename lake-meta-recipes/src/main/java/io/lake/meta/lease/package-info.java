/**
 * Leases with monotonic epochs and leader election, built only on the public
 * {@link io.lake.meta.MetaStore} contract, so they work on every backend.
 *
 * <p>{@link io.lake.meta.lease.LeaderElection} campaigns for a lease key and publishes a
 * {@link io.lake.meta.lease.LeaseGuard} per installed lease; {@code io.lake.meta.fenced.FencedMetaStore}
 * turns every write into a guarded mutation on that guard's exact bytes.
 * {@link io.lake.meta.lease.LeaseCandidate} runs the same campaign rounds for recipes that decide
 * themselves when a term may start, such as {@code io.lake.meta.lock.FencedLock}. See
 * {@code docs/guides/leases-and-fencing.md} and {@code docs/guides/recipes.md}.
 */
@NullMarked
package io.lake.meta.lease;

import org.jspecify.annotations.NullMarked;
