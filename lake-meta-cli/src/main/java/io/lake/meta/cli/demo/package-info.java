/**
 * The scenes of {@code lake-meta demo}: compare-and-set, guarded writes, leadership, paging,
 * table registration, maintenance and replay, each on one store.
 */
@NullMarked
package io.lake.meta.cli.demo;

import org.jspecify.annotations.NullMarked;
