package io.lake.meta.spi;

import io.lake.meta.Entry;
import io.lake.meta.KeyPrefix;
import io.lake.meta.MetaKey;
import io.lake.meta.StoreClosedException;
import io.lake.meta.watch.Watch;
import io.lake.meta.watch.WatchEvent;
import io.lake.meta.watch.WatchListener;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One watch's delivery: a map of pending events, at most one per key, drained in order by one
 * task at a time on the registry's executor. Offering never waits for the listener: a newer event
 * for a key replaces the pending one in its place, so every pending key is delivered within as
 * many deliveries as there are keys pending, however often it is rewritten.
 *
 * <p>Lifecycle: registered (changes are collected, initial contents added, nothing delivered),
 * then {@link #start()}ed, then closed. Thread-safe; state is guarded by {@code this}, and the
 * listener is called without holding it.
 */
final class DispatchedWatch implements Watch {

    private static final Logger LOG = LoggerFactory.getLogger(DispatchedWatch.class);

    private final KeyPrefix prefix;
    private final WatchListener listener;
    private final Executor executor;
    private final String description;
    private final Runnable onClose;

    private final List<WatchEvent> initial = new ArrayList<>();
    private LinkedHashMap<MetaKey, WatchEvent> pending = new LinkedHashMap<>();
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

    /** Adds a key found by the initial read; before {@link #start()} only. */
    synchronized void addInitial(Entry entry) {
        if (started) {
            throw new IllegalStateException("initial contents are added before the watch starts");
        }
        if (!closed && prefix.contains(entry.key())) {
            initial.add(WatchEvent.initial(entry.key(), entry.value()));
        }
    }

    /** Queues {@code changes} (in commit order) for the keys under the prefix; never waits for the listener. */
    void offer(List<WatchEvent> changes) {
        synchronized (this) {
            if (closed) {
                return;
            }
            for (WatchEvent change : changes) {
                if (prefix.contains(change.key())) {
                    // a replaced event keeps its key's place: moving it to the end starved the
                    // key rewritten most often whenever the listener was slower than the writers
                    pending.put(change.key(), change);
                }
            }
        }
        scheduleIfNeeded();
    }

    /**
     * Starts delivery: the initial contents first (a key with a pending change is reported by that
     * newer change instead), then the changes collected meanwhile.
     *
     * @throws StoreClosedException if the store closed the watch while it was being registered
     */
    Watch start() {
        synchronized (this) {
            if (closed) {
                throw new StoreClosedException(description);
            }
            LinkedHashMap<MetaKey, WatchEvent> ordered = new LinkedHashMap<>();
            for (WatchEvent event : initial) {
                if (!pending.containsKey(event.key())) {
                    ordered.put(event.key(), event);
                }
            }
            ordered.putAll(pending);
            pending = ordered;
            initial.clear();
            started = true;
        }
        scheduleIfNeeded();
        return this;
    }

    synchronized boolean isClosed() {
        return closed;
    }

    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            pending.clear();
            initial.clear();
        }
        onClose.run();
    }

    private void scheduleIfNeeded() {
        synchronized (this) {
            if (closed || !started || scheduled || pending.isEmpty()) {
                return;
            }
            scheduled = true;
        }
        try {
            executor.execute(this::drain);
        } catch (RejectedExecutionException e) {
            close(); // the registry shut its executor down: the store is closing
        }
    }

    private void drain() {
        while (true) {
            WatchEvent next;
            synchronized (this) {
                if (closed || pending.isEmpty()) {
                    scheduled = false;
                    return;
                }
                Iterator<WatchEvent> oldest = pending.values().iterator();
                next = oldest.next();
                oldest.remove();
            }
            deliver(next);
        }
    }

    private void deliver(WatchEvent event) {
        try {
            listener.onChange(event);
        } catch (RuntimeException e) {
            LOG.warn("{}: the listener of the watch on '{}' threw on the event for '{}'; that event is dropped,"
                    + " later ones still come", description, prefix, event.key(), e);
        } catch (Error e) {
            LOG.error("{}: the listener of the watch on '{}' threw an Error on the event for '{}'; the watch is closed",
                    description, prefix, event.key(), e);
            synchronized (this) {
                scheduled = false;
            }
            close();
            throw e;
        }
    }

    @Override
    public String toString() {
        return "Watch[" + prefix + " on " + description + "]";
    }
}
