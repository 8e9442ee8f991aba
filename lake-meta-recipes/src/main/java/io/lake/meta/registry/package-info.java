/**
 * The table registry: typed table registrations under {@code tbl/<namespace>/<name>}, written
 * only with exact-bytes compare-and-set, so every write can go through a
 * {@code io.lake.meta.fenced.FencedMetaStore}. A drop leaves a durable tombstone that only the
 * maintenance sweep ({@code io.lake.meta.maintenance}) deletes, after the table's data was cleaned up.
 * See {@code docs/guides/recipes.md} and {@code specs/registry-maintenance.spec.md}.
 */
@NullMarked
package io.lake.meta.registry;

import org.jspecify.annotations.NullMarked;
