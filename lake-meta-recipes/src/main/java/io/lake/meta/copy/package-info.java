/**
 * {@link io.lake.meta.copy.StoreCopy}: copies the keys of chosen prefixes from one
 * {@link io.lake.meta.MetaStore} to another of any backend, resumably, and verifies the two
 * stores hold the same keys and values, using only the {@code MetaStore} contract.
 *
 * @since 0.1.0
 */
@NullMarked
package io.lake.meta.copy;

import org.jspecify.annotations.NullMarked;
