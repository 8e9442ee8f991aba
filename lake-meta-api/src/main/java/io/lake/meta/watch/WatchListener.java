package io.lake.meta.watch;

/**
 * Hears what a {@link io.lake.meta.MetaStore#watch watch} reports: first the prefix's contents,
 * then its changes.
 *
 * <p>The store calls it on a thread of its own, never on a writer's thread, and one event at a
 * time for each watch: a listener is never called concurrently with itself by the same watch.
 * Writers never wait for it; while it is busy, the watch keeps only the latest event per key
 * (a key it never heard of that is created and deleted meanwhile is not reported at all), and a
 * key rewritten meanwhile keeps its place, so no key starves.
 * An exception it throws is logged and drops that one event; the watch goes on with later ones.
 *
 * @since 0.1.0
 */
@FunctionalInterface
public interface WatchListener {

    /** Called once per event; should return quickly (hand slow work to a thread of your own). */
    void onChange(WatchEvent event);
}
