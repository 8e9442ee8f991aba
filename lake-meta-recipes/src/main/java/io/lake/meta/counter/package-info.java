/**
 * Monotonic counters, built only on the public {@link io.lake.meta.MetaStore} contract, so they
 * work on every backend.
 *
 * <p>{@link io.lake.meta.counter.MonotonicCounter} hands out values from a counter record by
 * exact-bytes compare-and-set: one value ({@code next()}) or a range of them with one write
 * ({@code nextRange(n)}). A value is handed out only after the write that claimed it is known to
 * have applied, so no value is ever handed out twice, also across crashes and lost answers;
 * values may be skipped. See {@code docs/guides/recipes.md}.
 */
@NullMarked
package io.lake.meta.counter;

import org.jspecify.annotations.NullMarked;
