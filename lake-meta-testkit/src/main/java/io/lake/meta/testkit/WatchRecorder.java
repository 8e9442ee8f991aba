package io.lake.meta.testkit;

import static org.assertj.core.api.Assertions.fail;

import io.lake.meta.KeyPrefix;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.watch.Watch;
import io.lake.meta.watch.WatchEvent;
import io.lake.meta.watch.WatchListener;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * A listener for the watch tests: records every event, lets a test wait (with a bounded timeout:
 * delivery is asynchronous) for the event it expects, and folds the events into the view a
 * listener would keep. {@link #sync} writes marker keys under the prefix and waits for them, so
 * that anything the store would have reported before them has arrived.
 */
final class WatchRecorder implements WatchListener {

    /** Marker keys end in this, under the watched prefix; {@link #events()} leaves them out. */
    static final String SYNC_MARK = "~sync-";

    private final KeyPrefix prefix;
    private final Duration timeout;
    private final WatchListener behaviour;
    private final List<WatchEvent> all = new ArrayList<>();
    private final BlockingQueue<WatchEvent> arrivals = new LinkedBlockingQueue<>(); // wakes waiters
    private int syncs;
    private volatile @Nullable Watch watch; // set by the factory, right after construction

    private WatchRecorder(KeyPrefix prefix, Duration timeout, WatchListener behaviour) {
        this.prefix = prefix;
        this.timeout = timeout;
        this.behaviour = behaviour;
    }

    /** Watches {@code prefix} on {@code store}; each event is recorded, then handed to {@code behaviour}. */
    static WatchRecorder watch(MetaStore store, KeyPrefix prefix, Duration timeout, WatchListener behaviour) {
        WatchRecorder recorder = new WatchRecorder(prefix, timeout, behaviour);
        recorder.watch = store.watch(prefix, recorder);
        return recorder;
    }

    @Override
    public void onChange(WatchEvent event) {
        synchronized (all) {
            all.add(event);
        }
        arrivals.add(event);
        behaviour.onChange(event);
    }

    Watch handle() {
        return Objects.requireNonNull(watch);
    }

    /**
     * Waits until an event that matches has arrived (at any time since the watch began: events of
     * different keys may come in any order), and returns the first such; fails after the timeout.
     */
    WatchEvent await(Predicate<WatchEvent> expected, String what) {
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            while (true) {
                arrivals.clear(); // before looking: an event recorded after this wakes the poll below
                for (WatchEvent event : all()) {
                    if (expected.test(event)) {
                        return event;
                    }
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return fail(
                            "no event %s on the watch of '%s' within %s; events so far: %s",
                            what, prefix, timeout, all());
                }
                arrivals.poll(left, TimeUnit.NANOSECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return fail("interrupted while waiting for an event " + what);
        }
    }

    WatchEvent awaitValue(MetaKey key, MetaValue value) {
        return await(
                e -> e.key().equals(key) && e.value().filter(value::equals).isPresent(), "with " + key + " = " + value);
    }

    WatchEvent awaitDeletion(MetaKey key) {
        return await(e -> e.key().equals(key) && e.isDeletion(), "deleting " + key);
    }

    /** Waits until {@code count} events (markers excluded) have arrived in all. */
    List<WatchEvent> awaitEvents(int count) {
        await(e -> events().size() >= count, "(" + count + " in all)");
        return events();
    }

    /**
     * Writes a marker key under the prefix and waits for its event, twice. An event the store
     * would report for an earlier write has arrived by then: an embedded store delivers in commit
     * order, and a polling store queues each poll's changes before a later poll's, while the second
     * marker is written only after the first was reported and so is found by a later poll.
     */
    void sync(MetaStore store) {
        for (int i = 0; i < 2; i++) {
            syncs++;
            MetaKey marker = MetaKey.of(prefix + SYNC_MARK + syncs);
            MetaValue mark = MetaValue.utf8("sync");
            store.create(marker, mark);
            awaitValue(marker, mark);
        }
    }

    /** Every event so far, in arrival order, markers included. */
    List<WatchEvent> all() {
        synchronized (all) {
            return List.copyOf(all);
        }
    }

    /** Every event so far, in arrival order, without the markers of {@link #sync}. */
    List<WatchEvent> events() {
        return all().stream()
                .filter(e -> !e.key().toString().contains(SYNC_MARK))
                .toList();
    }

    /** The events for {@code key}, in arrival order, with consecutive repeats (allowed: at least once) folded. */
    List<WatchEvent> eventsOf(MetaKey key) {
        List<WatchEvent> folded = new ArrayList<>();
        for (WatchEvent event : all()) {
            if (event.key().equals(key) && (folded.isEmpty() || !sameReport(folded.get(folded.size() - 1), event))) {
                folded.add(event);
            }
        }
        return folded;
    }

    private static boolean sameReport(WatchEvent a, WatchEvent b) {
        return a.value().equals(b.value());
    }

    /** The prefix as a listener that applies every event in order sees it, markers included, as UTF-8 text. */
    Map<String, String> view() {
        Map<String, String> view = new LinkedHashMap<>();
        for (WatchEvent event : all()) {
            if (event.isDeletion()) {
                view.remove(event.key().toString());
            } else {
                view.put(event.key().toString(), event.value().orElseThrow().asUtf8());
            }
        }
        return view;
    }
}
