/**
 * The contract suites every {@link io.lake.meta.MetaStore} backend runs, the in-memory reference
 * store, and the race hooks and helpers they share. See {@code docs/guides/testing.md}.
 */
@NullMarked
package io.lake.meta.testkit;

import org.jspecify.annotations.NullMarked;
