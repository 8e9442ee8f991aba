package io.lake.meta.spi;

import static org.assertj.core.api.Assertions.assertThat;

import io.lake.meta.Entry;
import io.lake.meta.KeyPrefix;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaValue;
import io.lake.meta.watch.WatchEvent;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A seeded explorer of one watch's delivery state machine (issue 23, items 1 and 2): random
 * writes to a model of the store (creates, updates, deletes, keys outside the prefix), published
 * before the watch starts (while a simulated initial read adds what it finds) and from inside the
 * listener, so a listener always behind the writers is simulated exactly, on one thread. After
 * each delivery it checks: per-key order (no value older than one heard), no deletion of a key
 * the listener never heard of, the queued events bounded by the keys under the prefix plus the
 * keys the listener knows, and fairness (a changed key is heard within as many deliveries as
 * there are keys that can be queued). At the end, the listener's view equals the model.
 *
 * <p>Seeds: {@code -Dlake.meta.watch.explorer.seeds=N} (default 100) from
 * {@code -Dlake.meta.watch.explorer.firstSeed=S} (default 1); a failure names its seed.
 */
class WatchDeliveryExplorerTest {

    private static final KeyPrefix PREFIX = KeyPrefix.of("tbl/ns1/");
    private static final int KEYS = 6;
    private static final int WRITES = 400;

    @Test
    void randomWritesAgainstASlowListener_keepOrderFairnessTheMemoryBound_andConverge() {
        int seeds = Integer.getInteger("lake.meta.watch.explorer.seeds", 100);
        long first = Long.getLong("lake.meta.watch.explorer.firstSeed", 1L);
        for (long seed = first; seed < first + seeds; seed++) {
            new Run(seed, false).explore();
        }
    }

    /**
     * The same, with an initial read that pages as {@link PrefixListing} does: it reads a page of
     * keys (sorted, after the last one read), writers publish while the page is in hand, and only
     * then are its entries added, with the values the page read. The test above reads each key at
     * the instant it is added, so a watch that forgot a deletion published during registration
     * (the page it races with was read before it) resurrects the deleted key, and that test passes.
     */
    @Test
    void randomWritesAgainstAnInitialReadThatPages_neverResurrectADeletedKey_andConverge() {
        int seeds = Integer.getInteger("lake.meta.watch.explorer.seeds", 100);
        long first = Long.getLong("lake.meta.watch.explorer.firstSeed", 1L);
        for (long seed = first; seed < first + seeds; seed++) {
            new Run(seed, true).explore();
        }
    }

    private static final class Run {
        final long seed;
        final Random random;
        final ManualExecutor executor = new ManualExecutor();
        final WatchRegistry registry = new WatchRegistry("explorer", () -> executor);
        final Map<MetaKey, Integer> model = new HashMap<>(); // key -> the write number it holds
        final Map<MetaKey, Integer> view = new LinkedHashMap<>(); // what the listener heard
        final Map<MetaKey, Integer> lastHeard = new HashMap<>(); // write number of the last change heard per key
        final Map<MetaKey, java.util.TreeSet<Integer>> deletions =
                new HashMap<>(); // write numbers of each key's deletions
        final Map<MetaKey, Integer> changedAtDelivery = new HashMap<>(); // first unheard change, by delivery count
        List<WatchEvent> batch; // changes written but not yet published, while a batch is written
        int writes;
        int deliveries;
        boolean started;
        DispatchedWatch watch;

        final boolean stalePages;

        Run(long seed, boolean stalePages) {
            this.seed = seed;
            this.stalePages = stalePages;
            this.random = new Random(seed);
        }

        void explore() {
            watch = registry.register(PREFIX, this::heard, () -> {});
            // registration: the initial read adds what it finds while writers publish
            List<MetaKey> toRead = new ArrayList<>();
            for (int i = 0; i < KEYS; i++) {
                write();
            }
            if (stalePages) {
                readInPages();
            } else {
                readKeyByKey(toRead);
            }
            watch.start();
            started = true;
            changedAtDelivery.clear(); // from now on: each key present must be heard (a deleted one need not be)
            for (MetaKey key : model.keySet()) {
                changedAtDelivery.put(key, 0);
            }
            write(); // something to deliver even when nothing was found
            executor.runAll(); // the listener writes while it hears, until the write budget is spent
            assertThat(view)
                    .as("seed %d: the listener's view once everything was heard", seed)
                    .isEqualTo(model);
            assertThat(watch.queuedEvents())
                    .as("seed %d: nothing left queued", seed)
                    .isZero();
        }

        /** Each key read at the instant it is added: never a stale page. */
        void readKeyByKey(List<MetaKey> toRead) {
            toRead.addAll(model.keySet());
            for (MetaKey key : toRead) {
                if (random.nextInt(3) == 0) {
                    write();
                }
                Integer found = model.get(key);
                if (found != null) {
                    watch.addInitial(new Entry(key, MetaValue.utf8(String.valueOf(found))));
                }
            }
        }

        /** Pages of up to two keys, read in key order; writes land between reading a page and adding it. */
        void readInPages() {
            String after = "";
            while (true) {
                String from = after;
                List<Map.Entry<MetaKey, Integer>> page = model.entrySet().stream()
                        .filter(e -> e.getKey().toString().compareTo(from) > 0)
                        .sorted(Map.Entry.comparingByKey(Comparator.comparing(MetaKey::toString)))
                        .limit(2)
                        .map(e -> Map.entry(e.getKey(), e.getValue()))
                        .toList();
                if (page.isEmpty()) {
                    return;
                }
                int between = random.nextInt(3);
                for (int i = 0; i < between; i++) {
                    write();
                }
                for (Map.Entry<MetaKey, Integer> entry : page) {
                    watch.addInitial(new Entry(entry.getKey(), MetaValue.utf8(String.valueOf(entry.getValue()))));
                }
                after = page.get(page.size() - 1).getKey().toString();
            }
        }

        void write() {
            writes++;
            MetaKey key = random.nextInt(8) == 0
                    ? MetaKey.of("tbl/ns10/" + random.nextInt(KEYS))
                    : MetaKey.of("tbl/ns1/" + random.nextInt(KEYS));
            WatchEvent change;
            if (model.containsKey(key) && random.nextInt(3) == 0) {
                model.remove(key);
                deletions.computeIfAbsent(key, k -> new java.util.TreeSet<>()).add(writes);
                change = WatchEvent.deleted(key);
            } else {
                model.put(key, writes);
                change = WatchEvent.changed(key, MetaValue.utf8(String.valueOf(writes)));
            }
            if (!PREFIX.contains(key)) {
                model.remove(key); // the model holds the prefix only
            } else if (started && change.isDeletion() && !view.containsKey(key)) {
                changedAtDelivery.remove(key); // never heard of: its creation and deletion cancel out
            } else {
                changedAtDelivery.putIfAbsent(key, deliveries);
            }
            if (batch != null) {
                batch.add(change);
            } else {
                registry.publish(List.of(change));
            }
        }

        /**
         * One write, or now and then a batch of two or three published together, in their order, as
         * a transaction or a group commit publishes them (one key may come twice).
         */
        void writeSome() {
            if (random.nextInt(4) != 0) {
                write();
                return;
            }
            batch = new ArrayList<>();
            int size = 2 + random.nextInt(2);
            for (int i = 0; i < size && writes < WRITES; i++) {
                write();
            }
            List<WatchEvent> written = batch;
            batch = null;
            registry.publish(written);
        }

        void heard(WatchEvent event) {
            deliveries++;
            MetaKey key = event.key();
            assertThat(PREFIX.contains(key))
                    .as("seed %d: %s is under the prefix", seed, event)
                    .isTrue();
            Integer since = changedAtDelivery.remove(key);
            if (since != null) {
                assertThat(deliveries - since)
                        .as("seed %d: deliveries before %s was heard", seed, event)
                        .isLessThanOrEqualTo(2 * KEYS);
            }
            if (event.isDeletion()) {
                assertThat(view)
                        .as("seed %d: %s deletes a key the listener heard of", seed, event)
                        .containsKey(key);
                view.remove(key);
                // A deletion heard is a deletion written after the value heard last: from now on only a
                // later write may be heard (hearing that value, or an older one, again resurrects the key).
                Integer deletedAt =
                        deletions.getOrDefault(key, new java.util.TreeSet<>()).higher(lastHeard.get(key));
                assertThat(deletedAt)
                        .as("seed %d: %s follows a deletion written after write %d", seed, event, lastHeard.get(key))
                        .isNotNull();
                lastHeard.put(key, deletedAt);
            } else {
                int number = Integer.parseInt(event.value().orElseThrow().asUtf8());
                assertThat(number)
                        .as("seed %d: %s is not older than what was heard of it (a deletion included)", seed, event)
                        .isGreaterThanOrEqualTo(lastHeard.getOrDefault(key, 0));
                lastHeard.put(key, number);
                view.put(key, number);
            }
            assertThat(watch.queuedEvents())
                    .as("seed %d: events queued", seed)
                    .isLessThanOrEqualTo(KEYS + watch.keysHeard());
            int burst = random.nextInt(4); // 0 to 3 writes per delivery: on average faster than the listener
            for (int i = 0; i < burst && writes < WRITES; i++) {
                writeSome();
            }
        }
    }
}
