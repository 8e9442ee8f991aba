/**
 * Histories of concurrent calls on a {@link io.lake.meta.MetaStore}, and a linearizability
 * checker for them.
 *
 * <p>{@link io.lake.meta.testkit.history.HistoryRecorder} wraps a store and records every
 * {@code get}, {@code getAll} (one get per key), {@code apply}, {@code applyGuarded} and
 * {@code transact} (and, for snapshot stores, first pages) with its answer and logical invocation and
 * answer times; {@link io.lake.meta.testkit.history.LinearizabilityChecker} then searches for one
 * order of the operations, each placed inside its own time span, that the sequential model of
 * the contract (many keys, exact-bytes conditional and guarded writes, all-or-nothing
 * transactions whose failures name every failed key) explains. An operation
 * whose outcome is unknown may take effect once, anywhere after its invocation, or never; one
 * the store said it did not apply must have had no effect. Hand-written histories
 * ({@link io.lake.meta.testkit.history.History#builder()}) test the checker itself.
 *
 * <p>A failure report names the operation no order explains and the longest consistent order
 * found before it. A check that runs out of its state budget says so and never passes.
 */
@NullMarked
package io.lake.meta.testkit.history;

import org.jspecify.annotations.NullMarked;
