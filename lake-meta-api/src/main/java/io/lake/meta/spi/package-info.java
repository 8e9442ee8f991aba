/**
 * For backend implementers: the page-token codec and page cursor every backend shares, and the
 * race hooks the contract suite uses to order concurrent calls deterministically. For decorators:
 * {@link io.lake.meta.spi.ForwardingMetaStore}, a store that forwards every call to another.
 * Applications do not need it.
 */
@NullMarked
package io.lake.meta.spi;

import org.jspecify.annotations.NullMarked;
