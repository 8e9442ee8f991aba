package io.lake.meta.ops;

import io.lake.meta.internal.Checks;

/**
 * The leader that runs (or ran) an operation: the lease holder's id and the fencing epoch of its
 * term. A later leader (a higher epoch) may recover an in-progress operation; the owner's own
 * term may end it.
 *
 * @param holder the lease holder's candidate id
 * @param epoch the lease epoch of the term the operation was begun or recovered in
 * @since 0.1.0
 */
public record OperationOwner(String holder, long epoch) {

    /** @throws io.lake.meta.InvalidArgumentException if {@code holder} is null */
    public OperationOwner {
        Checks.notNull(holder, "holder");
    }
}
