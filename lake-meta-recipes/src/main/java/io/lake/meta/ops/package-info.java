/**
 * The idempotent operation journal: one record per operation under {@code ops/<tenant>/<operationId>},
 * with the digest of its payload, so a retried request is answered with the recorded outcome and a
 * different request reusing the id is refused. In-progress records carry the fencing epoch of the
 * leader that began them; a later leader recovers them with a compare-and-set and its own epoch.
 * Every write is one conditional write, so a {@code io.lake.meta.fenced.FencedMetaStore} fences
 * them all. See {@code docs/guides/recipes.md} and {@code specs/operation-journal.spec.md}.
 */
@NullMarked
package io.lake.meta.ops;

import org.jspecify.annotations.NullMarked;
