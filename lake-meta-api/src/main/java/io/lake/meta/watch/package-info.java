/**
 * Change notifications: {@link io.lake.meta.MetaStore#watch} hands a {@link io.lake.meta.watch.WatchListener}
 * the contents of a prefix and then every change to it, as {@link io.lake.meta.watch.WatchEvent}s,
 * until the returned {@link io.lake.meta.watch.Watch} is closed.
 */
@NullMarked
package io.lake.meta.watch;

import org.jspecify.annotations.NullMarked;
