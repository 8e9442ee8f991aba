package io.lake.meta.spi;

import io.lake.meta.Entry;
import io.lake.meta.KeyPrefix;
import io.lake.meta.MetaKey;
import io.lake.meta.StoreClosedException;
import io.lake.meta.watch.Watch;
import io.lake.meta.watch.WatchEvent;
import io.lake.meta.watch.WatchListener;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One watch's delivery: the events queued for its listener, drained in order by one task at a
 * time on the registry's executor. Offering never waits for the listener.
 *
 * <ul>
 *   <li>At most one queued event per key: a newer event for a key replaces the queued one in its
 *       place, so every queued key is delivered within as many deliveries as there are keys
 *       queued, however often it is rewritten.</li>
 *   <li>The watch remembers which keys the listener was last told exist ({@code heard}). Once the
 *       watch has started, a deletion of a key the listener never heard of cancels the key's queued
 *       event instead of queuing one, and a queued deletion of such a key is skipped. So the watch
 *       holds at most one event per key under the prefix plus one per key the listener knows,
 *       however many keys come and go while the listener is busy.</li>
 * </ul>
 *
 * <p>Lifecycle: registered (changes are collected, initial contents added, nothing delivered),
 * then {@link #start()}ed, then closed. While registered a deletion is queued as any other change:
 * the initial read may have found the key before it was deleted, and a queued change of a key
 * makes the read's older value of it be dropped.
 *
 * <p>Thread-safe; state is guarded by a private lock (never by the {@link Watch} handle a caller
 * holds), and the listener is called without holding it. A writer filters its changes by the
 * prefix before taking the lock and holds it for constant time per change; starting and closing
 * hold it for constant time too.
 */
final class DispatchedWatch implements Watch {

    private static final Logger LOG = LoggerFactory.getLogger(DispatchedWatch.class);

    private final KeyPrefix prefix;
    private final WatchListener listener;
    private final Executor executor;
    private final String description;
    private final Runnable onClose;
    // Private: the caller holds this watch as its handle and may synchronize on it; writers must not wait for that.
    private final Object lock = new Object();

    private LinkedHashMap<MetaKey, WatchEvent> initial = new LinkedHashMap<>(); // found by the read, not yet delivered
    private LinkedHashMap<MetaKey, WatchEvent> pending = new LinkedHashMap<>(); // changes not yet delivered
    private HashSet<MetaKey> heard = new HashSet<>(); // keys whose last event delivered was not a deletion
    private boolean started;
    private boolean scheduled;
    private boolean closed;

    DispatchedWatch(KeyPrefix prefix, WatchListener listener, Executor executor, String description, Runnable onClose) {
        this.prefix = prefix;
        this.listener = listener;
        this.executor = executor;
        this.description = description;
        this.onClose = onClose;
    }

    @Override
    public KeyPrefix prefix() {
        return prefix;
    }

    /**
     * Adds a key found by the initial read; before {@link #start()} only. A key with a change
     * queued already is reported by that change instead: the change is at least as new.
     */
    void addInitial(Entry entry) {
        if (!prefix.contains(entry.key())) {
            return;
        }
        synchronized (lock) {
            if (started) {
                throw new IllegalStateException("initial contents are added before the watch starts");
            }
            if (!closed && !pending.containsKey(entry.key())) {
                initial.put(entry.key(), WatchEvent.initial(entry.key(), entry.value()));
            }
        }
    }

    /** Queues {@code changes} (in commit order) for the keys under the prefix; never waits for the listener. */
    void offer(List<WatchEvent> changes) {
        List<WatchEvent> mine = underPrefix(changes); // filtered before the lock: other prefixes never wait for it
        if (mine.isEmpty()) {
            return;
        }
        synchronized (lock) {
            if (closed) {
                return;
            }
            for (WatchEvent change : mine) {
                queue(change);
            }
        }
        scheduleIfNeeded();
    }

    private List<WatchEvent> underPrefix(List<WatchEvent> changes) {
        int inside = 0;
        for (WatchEvent change : changes) {
            if (prefix.contains(change.key())) {
                inside++;
            }
        }
        if (inside == changes.size()) {
            return changes;
        }
        List<WatchEvent> mine = new ArrayList<>(inside);
        for (WatchEvent change : changes) {
            if (prefix.contains(change.key())) {
                mine.add(change);
            }
        }
        return mine;
    }

    /** Constant time; called holding the lock. */
    private void queue(WatchEvent change) {
        MetaKey key = change.key();
        initial.remove(key); // the change is newer than what the read found
        if (started && change.isDeletion() && !heard.contains(key)) {
            pending.remove(key); // the listener never heard of the key: its creation and deletion cancel out
        } else {
            pending.put(key, change); // a replaced event keeps its key's place
        }
    }

    /**
     * Starts delivery: the initial contents first (a key with a change queued is reported by that
     * newer change instead), then the changes collected meanwhile.
     *
     * @throws StoreClosedException if the store closed the watch while it was being registered
     */
    Watch start() {
        synchronized (lock) {
            if (closed) {
                throw new StoreClosedException(description);
            }
            started = true;
        }
        scheduleIfNeeded();
        return this;
    }

    /** Events queued for the listener, initial ones included: what this watch holds in memory. For tests. */
    int queuedEvents() {
        synchronized (lock) {
            return initial.size() + pending.size();
        }
    }

    /** How many keys the listener was last told exist. For tests. */
    int keysHeard() {
        synchronized (lock) {
            return heard.size();
        }
    }

    boolean isClosed() {
        synchronized (lock) {
            return closed;
        }
    }

    @Override
    public void close() {
        synchronized (lock) {
            if (closed) {
                return;
            }
            closed = true;
            // new, empty collections rather than clear(): constant time under the lock
            initial = new LinkedHashMap<>();
            pending = new LinkedHashMap<>();
            heard = new HashSet<>();
        }
        onClose.run();
    }

    private void scheduleIfNeeded() {
        synchronized (lock) {
            if (closed || !started || scheduled || (initial.isEmpty() && pending.isEmpty())) {
                return;
            }
            scheduled = true;
        }
        try {
            executor.execute(this::drain);
        } catch (RejectedExecutionException e) {
            close(); // the registry shut its executor down: the store is closing
        } catch (RuntimeException | Error e) {
            // A pool that cannot start a thread throws OutOfMemoryError. The publisher (a committer
            // whose batch is written) must not fail, and the watch must not stay marked scheduled:
            // the events stay queued and the next change schedules the delivery again.
            synchronized (lock) {
                scheduled = false;
            }
            LOG.error(
                    "{}: could not start delivering to the listener of the watch on '{}'; its events stay queued"
                            + " and the next change tries again",
                    description,
                    prefix,
                    e);
        }
    }

    private void drain() {
        while (true) {
            WatchEvent next;
            synchronized (lock) {
                next = takeNext();
                if (next == null) {
                    scheduled = false;
                    return;
                }
            }
            deliver(next);
        }
    }

    /** The next event to deliver, null when none is; called holding the lock. */
    private @Nullable WatchEvent takeNext() {
        while (!closed) {
            LinkedHashMap<MetaKey, WatchEvent> from = initial.isEmpty() ? pending : initial;
            if (from.isEmpty()) {
                return null;
            }
            Iterator<WatchEvent> oldest = from.values().iterator();
            WatchEvent next = oldest.next();
            oldest.remove();
            if (!next.isDeletion()) {
                heard.add(next.key());
                return next;
            }
            if (heard.remove(next.key())) {
                return next;
            }
            // a deletion queued while the watch was registering, of a key the listener never heard of
        }
        return null;
    }

    private void deliver(WatchEvent event) {
        try {
            listener.onChange(event);
        } catch (Error e) {
            LOG.error(
                    "{}: the listener of the watch on '{}' threw an Error on the event for '{}'; the watch is closed",
                    description,
                    prefix,
                    event.key(),
                    e);
            // closed before the drain lets go of 'scheduled', so a change offered meanwhile cannot
            // start a second drain that hands this listener another event after its Error
            close();
            synchronized (lock) {
                scheduled = false;
            }
            throw e;
        } catch (Throwable e) { // a RuntimeException, or a checked one (a Kotlin listener, a sneaky throw)
            LOG.warn(
                    "{}: the listener of the watch on '{}' threw on the event for '{}'; that event is dropped,"
                            + " later ones still come",
                    description,
                    prefix,
                    event.key(),
                    e);
        }
    }

    @Override
    public String toString() {
        return "Watch[" + prefix + " on " + description + "]";
    }
}
