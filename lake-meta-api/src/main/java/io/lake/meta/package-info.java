/**
 * The lake-meta contract: {@link io.lake.meta.MetaStore} with exact-bytes compare-and-set,
 * guarded mutations, multi-key transactions and bounded prefix pages; keys, values, mutations,
 * results and the exception family rooted at {@link io.lake.meta.MetaStoreException}.
 *
 * <p>Null-marked (JSpecify): no parameter accepts null and no method returns null unless marked
 * {@code @Nullable}; a null argument raises {@link io.lake.meta.InvalidArgumentException}. Values
 * that may be missing are {@link java.util.Optional}s.
 */
@NullMarked
package io.lake.meta;

import org.jspecify.annotations.NullMarked;
