/**
 * Fenced locks: a lock per resource key on the lease machinery of {@code io.lake.meta.lease},
 * built only on the public {@link io.lake.meta.MetaStore} contract, so it works on every backend.
 *
 * <p>{@link io.lake.meta.lock.FencedLock} acquires a lock (with a timeout), renews it in the
 * background and releases it; each acquisition is a {@link io.lake.meta.lock.LockHold} with its
 * own epoch and its own fenced {@code MetaStore} view. Every write through that view carries the
 * hold's exact lease bytes as a condition, so a holder that lost its lock (released, expired,
 * taken over) cannot write, whatever its clocks say. See {@code docs/guides/recipes.md}.
 */
@NullMarked
package io.lake.meta.lock;

import org.jspecify.annotations.NullMarked;
