/**
 * The fenced store: a {@link io.lake.meta.MetaStore} that sends every write as a guarded
 * mutation on the exact bytes of the caller's current lease, so a deposed leader cannot write.
 */
@NullMarked
package io.lake.meta.fenced;

import org.jspecify.annotations.NullMarked;
