package io.lake.meta.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.lake.meta.InvalidArgumentException;
import io.lake.meta.KeyPrefix;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaValue;
import io.lake.meta.StoreClosedException;
import io.lake.meta.Transaction;
import io.lake.meta.watch.Watch;
import io.lake.meta.watch.WatchEvent;
import io.lake.meta.watch.WatchListener;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Part of {@link MetaStoreSuite}: change notifications with {@code watch}. Delivery is
 * asynchronous, so the tests wait for the events they expect, each wait bounded by
 * {@link #watchDeliveryTimeout()}; they never sleep to let something happen. Where a test shows
 * that something is <em>not</em> reported, it first {@linkplain WatchRecorder#sync syncs}: it writes
 * marker keys and waits for them, after which anything reported for earlier writes has arrived.
 */
@ContractGroup("watches")
abstract class WatchContract extends BatchReadContract {

    /**
     * The longest the suite waits for one event: {@link SuiteSettings#watchDeliveryTimeout()}. A
     * backend that polls must report a change well within it: give its stores a short poll interval
     * (tens of milliseconds).
     */
    final Duration watchDeliveryTimeout() {
        return settings().watchDeliveryTimeout();
    }

    private final KeyPrefix ns1 = prefix("tbl/ns1/");
    private final MetaKey a = key("tbl/ns1/a");
    private final MetaKey b = key("tbl/ns1/b");
    private final MetaKey c = key("tbl/ns1/c");
    private final List<CountDownLatch> toRelease = new ArrayList<>();
    private final List<Semaphore> toOpen = new ArrayList<>();

    @AfterEach
    void releaseBlockedListeners() {
        toRelease.forEach(CountDownLatch::countDown);
        toOpen.forEach(gate -> gate.release(Integer.MAX_VALUE / 2));
    }

    private WatchRecorder watch(KeyPrefix prefix) {
        return watch(prefix, event -> {});
    }

    private WatchRecorder watch(KeyPrefix prefix, WatchListener behaviour) {
        return WatchRecorder.watch(store, prefix, watchDeliveryTimeout(), behaviour);
    }

    /**
     * A listener that blocks in its first call until {@link Blocker#release} is counted down,
     * and remembers the thread that called it.
     */
    private final class Blocker implements WatchListener {
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final CountDownLatch returned = new CountDownLatch(1);
        volatile @Nullable Thread deliveryThread;

        Blocker() {
            toRelease.add(release);
        }

        @Override
        public void onChange(WatchEvent event) {
            deliveryThread = Thread.currentThread();
            if (entered.getCount() > 0) {
                entered.countDown();
                awaitLatch(release);
                returned.countDown();
            }
        }

        /** Lets the first call return and waits until its thread has nothing more to deliver. */
        void releaseAndAwaitIdle() {
            release.countDown();
            awaitLatch(returned);
            awaitParkedOrGone(Objects.requireNonNull(deliveryThread)); // set before entered was counted down
        }
    }

    /**
     * Waits until {@code thread} is parked (waiting for work, a lock or a latch) or has ended.
     * After a listener's call returned, a store that still had something to hand that listener
     * hands it before its thread goes idle; a store that has nothing parks the thread or ends it.
     */
    @SuppressWarnings("ThreadPriorityCheck") // yields: the delivery thread runs on a busy machine while this one polls
    private void awaitParkedOrGone(Thread thread) {
        long deadline = System.nanoTime() + watchDeliveryTimeout().toNanos();
        while (true) {
            Thread.State state = thread.getState();
            if (state == Thread.State.WAITING
                    || state == Thread.State.TIMED_WAITING
                    || state == Thread.State.BLOCKED
                    || state == Thread.State.TERMINATED) {
                return;
            }
            assertThat(System.nanoTime())
                    .as("the delivery thread %s went idle in time (state %s)", thread, state)
                    .isLessThan(deadline);
            Thread.yield();
        }
    }

    private void awaitLatch(CountDownLatch latch) {
        try {
            assertThat(latch.await(watchDeliveryTimeout().toMillis(), TimeUnit.MILLISECONDS))
                    .as("latch released in time")
                    .isTrue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    @Test
    void theContentsComeFirst_asInitialEvents_thenTheChanges() {
        store.create(a, value("a1"));
        store.create(b, value("b1"));
        store.create(key("tbl/ns10/a"), value("sibling"));
        store.create(key("ops/ns1/a"), value("other family"));

        WatchRecorder watch = watch(ns1);
        List<WatchEvent> initial = watch.awaitEvents(2);
        store.update(a, value("a1"), value("a2"));
        watch.awaitValue(a, value("a2"));

        assertThat(initial)
                .containsExactlyInAnyOrder(WatchEvent.initial(a, value("a1")), WatchEvent.initial(b, value("b1")));
        List<WatchEvent> events = watch.events();
        List<WatchEvent> later = events.subList(2, events.size());
        assertThat(later)
                .as("events after the initial ones (repeats allowed)")
                .containsOnly(WatchEvent.changed(a, value("a2")));
    }

    @Test
    void aCreate_anUpdate_andADelete_areEachReported_withTheLatestValue() {
        WatchRecorder watch = watch(ns1);

        store.create(a, value("1"));
        watch.awaitValue(a, value("1"));
        store.update(a, value("1"), value("2"));
        watch.awaitValue(a, value("2"));
        store.delete(a, value("2"));
        watch.awaitDeletion(a);

        assertThat(watch.eventsOf(a))
                .containsExactly(
                        WatchEvent.changed(a, value("1")), WatchEvent.changed(a, value("2")), WatchEvent.deleted(a));
    }

    @Test
    void theEmptyValue_isReportedAsAValue_notAsADeletion() {
        WatchRecorder watch = watch(ns1);

        store.create(a, MetaValue.empty());

        WatchEvent event = watch.await(e -> e.key().equals(a), "for " + a);
        assertThat(event.isDeletion()).isFalse();
        assertThat(event.value()).contains(MetaValue.empty());
    }

    @Test
    void keysOutsideThePrefix_areNeverReported_siblingPrefixesAndOtherFamiliesIncluded() {
        WatchRecorder watch = watch(ns1);

        store.create(key("tbl/ns10/a"), value("sibling prefix"));
        store.create(key("tbl/ns1"), value("the prefix without its slash"));
        store.create(key("tbl/ns2/a"), value("other namespace"));
        store.create(key("ops/ns1/a"), value("other family"));
        store.transact(Transaction.builder()
                .create(key("tbl/ns10/b"), value("x"))
                .create(b, value("inside"))
                .create(key("ops/ns1/b"), value("x"))
                .build());
        store.create(a, value("inside"));
        watch.sync(store);

        assertThat(watch.all())
                .allSatisfy(e -> assertThat(ns1.contains(e.key()))
                        .as("%s is under %s", e, ns1)
                        .isTrue());
        assertThat(watch.events()).extracting(WatchEvent::key).containsExactlyInAnyOrder(a, b);
    }

    @Test
    void eachKeysEvents_neverGoBack_andEndWithItsLatestValue_evenForAListenerThatFellBehind() {
        Blocker blocker = new Blocker();
        WatchRecorder watch = watch(ns1, blocker);
        store.create(c, value("first"));
        awaitLatch(blocker.entered);

        store.create(a, value("0"));
        store.create(b, value("0"));
        for (int i = 1; i <= 60; i++) {
            store.update(a, value(String.valueOf(i - 1)), value(String.valueOf(i)));
            store.update(b, value(String.valueOf(i - 1)), value(String.valueOf(i)));
            if (i == 30) {
                blocker.release.countDown(); // let the listener catch up halfway
            }
        }
        watch.awaitValue(a, value("60"));
        watch.awaitValue(b, value("60"));
        for (int i = 61; i <= 63; i++) { // and, caught up, one event per update
            store.update(a, value(String.valueOf(i - 1)), value(String.valueOf(i)));
            watch.awaitValue(a, value(String.valueOf(i)));
        }
        watch.sync(store);

        for (MetaKey k : List.of(a, b)) {
            List<Integer> seen = watch.eventsOf(k).stream()
                    .map(e -> Integer.parseInt(e.value().orElseThrow().asUtf8()))
                    .toList();
            assertThat(seen)
                    .as("values reported for %s, in order", k)
                    .isSorted()
                    .endsWith(k.equals(a) ? 63 : 60);
        }
    }

    /**
     * A listener that takes one permit per event, after the event was recorded: the test decides
     * how many events it may hear, one delivery at a time.
     */
    private WatchListener gatedBy(Semaphore permits) {
        toOpen.add(permits);
        return event -> {
            try {
                assertThat(permits.tryAcquire(watchDeliveryTimeout().toMillis(), TimeUnit.MILLISECONDS))
                        .as("the test granted the listener another event in time")
                        .isTrue();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        };
    }

    /**
     * Fairness: with writes faster than the listener, every changed key is heard within a bounded
     * number of deliveries, the key rewritten most often included. Each round rewrites one of four
     * cold keys and the hot key, then lets the listener hear one event, so the listener is always
     * behind. A key whose pending event is replaced keeps its place in the queue, so a change is
     * heard within as many deliveries as there are keys under the prefix; a polling store may find
     * a change one poll late, which can add up to two more backlogs. The hot key sorts last, so a
     * poll finds it after the cold keys.
     */
    @Test
    void aListenerSlowerThanTheWrites_hearsEveryChangedKey_withinABoundedNumberOfDeliveries_theHottestIncluded() {
        List<MetaKey> cold =
                List.of(key("tbl/ns1/cold-0"), key("tbl/ns1/cold-1"), key("tbl/ns1/cold-2"), key("tbl/ns1/cold-3"));
        MetaKey hot = key("tbl/ns1/zz-hot");
        List<MetaKey> keys = new ArrayList<>(cold);
        keys.add(hot);
        for (MetaKey k : keys) {
            store.create(k, value("0"));
        }
        Semaphore permits = new Semaphore(0);
        WatchRecorder watch = watch(ns1, gatedBy(permits));
        watch.awaitEvents(1); // the listener holds its first event, waiting for a permit
        int rounds = 60;
        int bound = 3 * keys.size() + 1;
        int[] last = new int[keys.size()];
        record Write(MetaKey key, int value, int deliveredBefore) {}
        List<Write> writes = new ArrayList<>();

        for (int round = 1; round <= rounds; round++) {
            int i = round % cold.size();
            int delivered = watch.all().size();
            store.update(cold.get(i), value(String.valueOf(last[i])), value(String.valueOf(round)));
            last[i] = round;
            writes.add(new Write(cold.get(i), round, delivered));
            store.update(hot, value(String.valueOf(round - 1)), value(String.valueOf(round)));
            writes.add(new Write(hot, round, delivered));
            permits.release();
            watch.awaitEvents(delivered + 1);
        }
        permits.release(Integer.MAX_VALUE / 2);
        watch.sync(store);

        List<WatchEvent> heard = watch.all();
        for (Write write : writes) {
            int heardAt = firstHeard(heard, write.key(), write.value(), write.deliveredBefore());
            assertThat(heardAt - write.deliveredBefore())
                    .as(
                            "deliveries between writing %s = %d and hearing it (at most %d; its events: %s)",
                            write.key(), write.value(), bound, watch.eventsOf(write.key()))
                    .isLessThanOrEqualTo(bound);
        }
        assertThat(watch.view()).isEqualTo(contents("tbl/ns1/"));
    }

    /**
     * Memory bounded by the listener's view plus the prefix, not by churn: while the listener is
     * blocked, 200 keys are created and deleted under the prefix, none of which it ever heard of
     * (their creation was still queued when their deletion came). Everything a watch queues is
     * eventually delivered, so what the listener hears once released measures what the watch held:
     * the prefix's key and the deletion of the key it knew. A polling store may have found a few
     * churned keys alive in its last poll before the release (one listing per shard, each at its
     * own moment); the listener then hears their creation and, later, their deletion, each
     * allowed for. No deletion of a key the listener never heard of is ever delivered.
     */
    @Test
    void aBlockedListenersWatch_holdsNoEventForKeysCreatedAndDeletedBehindItsBack() {
        int churn = 200;
        Blocker blocker = new Blocker();
        WatchRecorder watch = watch(ns1, blocker);
        store.create(a, value("seen"));
        awaitLatch(blocker.entered); // the listener knows a, and is blocked in that call

        for (int i = 0; i < churn; i++) {
            MetaKey brief = key("tbl/ns1/churn/" + i);
            store.create(brief, value("brief"));
            store.delete(brief, value("brief"));
        }
        store.create(b, value("kept"));
        store.delete(a, value("seen"));
        blocker.release.countDown();
        watch.sync(store);

        List<WatchEvent> afterRelease = watch.events().subList(1, watch.events().size());
        List<MetaKey> heardCreated = new ArrayList<>();
        List<MetaKey> deletedUnheard = new ArrayList<>();
        for (WatchEvent event : afterRelease) {
            if (!event.isDeletion()) {
                heardCreated.add(event.key());
            } else if (!event.key().equals(a) && !heardCreated.contains(event.key())) {
                deletedUnheard.add(event.key());
            }
        }
        assertThat(deletedUnheard)
                .as("deletions delivered of keys the listener never heard of")
                .isEmpty();
        long churnHeard = heardCreated.stream().filter(k -> !k.equals(b)).count();
        assertThat(afterRelease)
                .as(
                        "events the blocked watch held (b, a's deletion, and %d churned keys a poll"
                                + " found alive, created and deleted)",
                        churnHeard)
                .hasSizeLessThanOrEqualTo((int) (2 + 2 * churnHeard))
                .contains(WatchEvent.changed(b, value("kept")), WatchEvent.deleted(a));
        assertThat(watch.view()).isEqualTo(contents("tbl/ns1/"));
    }

    private static int firstHeard(List<WatchEvent> heard, MetaKey key, int value, int from) {
        for (int i = from; i < heard.size(); i++) {
            WatchEvent event = heard.get(i);
            if (event.key().equals(key)
                    && !event.isDeletion()
                    && Integer.parseInt(event.value().orElseThrow().asUtf8()) >= value) {
                return i;
            }
        }
        return Integer.MAX_VALUE;
    }

    @Test
    void aTransactionsWrites_areAllReported() {
        store.create(b, value("b1"));
        store.create(c, value("c1"));
        WatchRecorder watch = watch(ns1);
        watch.awaitEvents(2);

        store.transact(Transaction.builder()
                .requireAbsent(key("tbl/ns1/d"))
                .create(a, value("a1"))
                .update(b, value("b1"), value("b2"))
                .delete(c, value("c1"))
                .build());

        watch.awaitValue(a, value("a1"));
        watch.awaitValue(b, value("b2"));
        watch.awaitDeletion(c);
        watch.sync(store);
        assertThat(watch.view()).isEqualTo(contents("tbl/ns1/"));
    }

    @Test
    void aFailedWrite_orATransactionThatDidNotApply_reportsNothing() {
        store.create(a, value("a1"));
        WatchRecorder watch = watch(ns1);
        watch.awaitEvents(1);

        store.update(a, value("stale"), value("never"));
        store.create(a, value("never"));
        store.transact(Transaction.builder()
                .requireHolds(b, value("missing"))
                .create(c, value("never"))
                .build());
        watch.sync(store);

        assertThat(watch.events()).containsExactly(WatchEvent.initial(a, value("a1")));
    }

    @Test
    void aListenerThatIsBlocked_holdsUpNoWriter_andNoOtherWatch_thenHearsTheLatestValues() {
        Blocker blocker = new Blocker();
        WatchRecorder blocked = watch(ns1, blocker);
        WatchRecorder other = watch(ns1);
        store.create(a, value("0"));
        awaitLatch(blocker.entered); // the blocked listener is inside its first call, and stays there

        // Every write returns while that call is still blocked: no writer waits for a listener.
        // The timeout only keeps a store that does make writers wait from hanging the suite.
        assertTimeoutPreemptively(watchDeliveryTimeout(), () -> {
            for (int i = 1; i <= 50; i++) {
                store.update(a, value(String.valueOf(i - 1)), value(String.valueOf(i)));
                store.create(key("tbl/ns1/many/" + i), value("v" + i));
            }
        });
        other.awaitValue(a, value("50"));
        assertThat(blocker.returned.getCount())
                .as("the blocked listener is still blocked")
                .isEqualTo(1);

        blocker.release.countDown();
        blocked.awaitValue(a, value("50"));
        blocked.sync(store);
        assertThat(blocked.view()).isEqualTo(contents("tbl/ns1/"));
    }

    /**
     * The {@code Watch} handle is the caller's: a caller that synchronizes on it must not stop the
     * store's writers, of its prefix or another. The writes run on a thread of their own while the
     * test holds the handle's monitor; the timeout only keeps a store that does make them wait from
     * hanging the suite.
     */
    @Test
    void aCallerHoldingItsWatchHandlesMonitor_holdsUpNoWriter() {
        WatchRecorder watch = watch(ns1);
        Watch handle = watch.handle();

        synchronized (handle) {
            CompletableFuture<Void> writes = CompletableFuture.runAsync(() -> {
                store.create(key("tbl/ns2/elsewhere"), value("1"));
                store.create(a, value("1"));
            });
            assertTimeoutPreemptively(
                    watchDeliveryTimeout(),
                    () -> writes.get(),
                    "writes answered while a caller holds its watch handle's monitor");
        }
        watch.awaitValue(a, value("1"));
    }

    @Test
    void aListenerThatThrows_keepsHearingLaterEvents() {
        WatchRecorder watch = watch(ns1, event -> {
            if (event.key().equals(a)) {
                throw new IllegalStateException("a listener bug, thrown on purpose by the contract suite");
            }
        });

        store.create(a, value("1"));
        watch.awaitValue(a, value("1"));
        store.create(b, value("1"));
        store.update(a, value("1"), value("2"));

        watch.awaitValue(b, value("1"));
        watch.awaitValue(a, value("2"));
    }

    @Test
    void close_stopsDelivery_evenOfWhatWasPending_isIdempotent_andLeavesOtherWatchesRunning() {
        Blocker blocker = new Blocker();
        WatchRecorder closing = watch(ns1, blocker);
        WatchRecorder staying = watch(ns1);
        store.create(a, value("1"));
        awaitLatch(blocker.entered); // closing's listener is inside its first call

        closing.handle().close();
        closing.handle().close();
        store.create(b, value("1"));
        store.update(a, value("1"), value("2"));
        staying.awaitValue(a, value("2"));
        staying.sync(store); // the writes were reported, to the watch still open
        blocker.releaseAndAwaitIdle(); // a watch still running would hand closing b and a = 2 now

        assertThat(closing.handle().prefix()).isEqualTo(ns1);
        assertThat(closing.all()).as("events of the closed watch").containsExactly(WatchEvent.changed(a, value("1")));
        assertThat(staying.eventsOf(b)).containsExactly(WatchEvent.changed(b, value("1")));
    }

    @Test
    void watchesOfDifferentPrefixes_eachHearTheirOwnKeys_aFamilyWatchHearsTheWholeFamily() {
        WatchRecorder family = watch(KeyPrefix.family("tbl"));
        WatchRecorder namespace = watch(ns1);
        WatchRecorder narrow = watch(prefix("tbl/ns1/a"));

        store.create(a, value("1"));
        store.create(key("tbl/ns1/ab"), value("1"));
        store.create(b, value("1"));
        store.create(key("tbl/ns2/x"), value("1"));
        family.sync(store);
        namespace.sync(store);
        narrow.sync(store);

        assertThat(family.events())
                .extracting(e -> e.key().toString())
                .containsExactlyInAnyOrder("tbl/ns1/a", "tbl/ns1/ab", "tbl/ns1/b", "tbl/ns2/x");
        assertThat(namespace.events())
                .extracting(e -> e.key().toString())
                .containsExactlyInAnyOrder("tbl/ns1/a", "tbl/ns1/ab", "tbl/ns1/b");
        assertThat(narrow.events())
                .extracting(e -> e.key().toString())
                .containsExactlyInAnyOrder("tbl/ns1/a", "tbl/ns1/ab");
    }

    @Test
    void aListenerThatAppliesEveryEvent_endsWithThePrefixsContents_changesUndoneAndRedoneIncluded() {
        store.create(a, value("1"));
        store.create(b, value("keep"));
        store.create(key("tbl/ns1/gone"), value("x"));
        store.create(key("tbl/ns1/untouched"), value("as it was"));
        WatchRecorder watch = watch(ns1);

        store.update(a, value("1"), value("2"));
        store.update(a, value("2"), value("1")); // undone: the latest value is the first one again
        store.delete(b, value("keep"));
        store.create(b, value("keep")); // deleted and created again with the same bytes
        store.delete(key("tbl/ns1/gone"), value("x"));
        store.create(c, value("new"));
        store.transact(Transaction.builder()
                .update(c, value("new"), value("newer"))
                .create(key("tbl/ns1/d"), MetaValue.empty())
                .build());
        watch.sync(store);

        assertThat(watch.view()).isEqualTo(contents("tbl/ns1/"));
        assertThat(watch.events()).noneMatch(e -> e.isInitial() && e.key().equals(c));
    }

    @SuppressWarnings("NullAway") // hands null to non-null parameters on purpose: they must be refused
    @Test
    void nullArguments_areInvalidArguments() {
        assertThatThrownBy(() -> store.watch(null, event -> {})).isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> store.watch(ns1, null)).isInstanceOf(InvalidArgumentException.class);
    }

    @Test
    void closingTheStore_endsItsWatches_pendingEventsIncluded_andWatchingAClosedStore_isStoreClosed() {
        Blocker blocker = new Blocker();
        WatchRecorder open = watch(ns1, blocker);
        store.create(a, value("1"));
        awaitLatch(blocker.entered);
        store.create(b, value("1")); // pending while the listener is busy

        store.close();
        blocker.releaseAndAwaitIdle(); // a watch the close missed would hand the listener b now
        open.handle().close(); // harmless after the store ended it

        assertThatThrownBy(() -> store.watch(ns1, event -> {})).isInstanceOf(StoreClosedException.class);
        assertThat(open.all()).containsExactly(WatchEvent.changed(a, value("1")));
    }

    /**
     * Re-entrant listeners, as users write them: inside {@code onChange} the listener writes under
     * its own prefix, opens another watch of it, and closes its own watch. Nothing deadlocks; the
     * closed watch hears nothing after; the new one starts with the contents and hears the rest.
     */
    @SuppressWarnings("NullAway") // the references are set by the listener before done is counted down
    @Test
    void aListenerThatWritesUnderItsPrefix_watchesAgain_andClosesItsOwnWatch_fromInsideOnChange() {
        AtomicReference<WatchRecorder> outer = new AtomicReference<>();
        AtomicReference<WatchRecorder> inner = new AtomicReference<>();
        AtomicReference<Thread> outerThread = new AtomicReference<>();
        CountDownLatch done = new CountDownLatch(1);
        outer.set(watch(ns1, event -> {
            if (event.key().equals(a) && inner.get() == null) {
                outerThread.set(Thread.currentThread());
                store.create(b, value("1"));
                inner.set(watch(ns1));
                outer.get().handle().close();
                done.countDown();
            }
        }));
        store.create(a, value("1"));
        awaitLatch(done);
        awaitParkedOrGone(outerThread.get()); // a watch still open would hand its listener b now

        store.create(c, value("1"));
        store.update(a, value("1"), value("2"));
        WatchRecorder second = inner.get();
        second.awaitValue(c, value("1"));
        second.awaitValue(a, value("2"));
        second.sync(store);
        assertThat(outer.get().all())
                .as("events of the watch its listener closed")
                .containsExactly(WatchEvent.changed(a, value("1")));
        assertThat(second.eventsOf(b)).containsExactly(WatchEvent.initial(b, value("1")));
        Map<String, String> view = second.view();
        view.keySet().removeIf(k -> !k.equals(a.toString()) && !k.equals(b.toString()) && !k.equals(c.toString()));
        assertThat(view)
                .containsExactlyInAnyOrderEntriesOf(Map.of(a.toString(), "2", b.toString(), "1", c.toString(), "1"));
    }

    /** A listener that closes the store from inside {@code onChange}: the close returns, and the store is closed. */
    @Test
    void aListenerThatClosesTheStore_fromInsideOnChange_returns_andTheStoreIsClosed() {
        CompletableFuture<Void> closed = new CompletableFuture<>();
        watch(ns1, event -> {
            try {
                store.close();
                closed.complete(null);
            } catch (RuntimeException | Error e) {
                closed.completeExceptionally(e);
            }
        });
        store.create(a, value("1"));
        assertTimeoutPreemptively(
                watchDeliveryTimeout(), () -> closed.get(), "store.close() called by a listener returned");
        assertThatThrownBy(() -> store.create(b, value("1"))).isInstanceOf(StoreClosedException.class);
    }

    /**
     * A key the blocked listener heard of, and one it never heard of, each deleted and created
     * again (twice) behind its back: once released it ends with each key's latest value, and a
     * key's events never go back.
     */
    @Test
    void keysDeletedAndRecreatedBehindABlockedListener_endWithTheirLatestValues() {
        Blocker blocker = new Blocker();
        WatchRecorder watch = watch(ns1, blocker);
        store.create(a, value("1"));
        awaitLatch(blocker.entered); // the listener heard a = 1 and is blocked inside
        for (int round = 2; round <= 3; round++) {
            store.delete(a, value(String.valueOf(round - 1)));
            store.create(a, value(String.valueOf(round)));
            store.create(c, value(String.valueOf(round)));
            store.delete(c, value(String.valueOf(round)));
        }
        store.create(c, value("4"));
        blocker.release.countDown();

        watch.awaitValue(a, value("3"));
        watch.awaitValue(c, value("4"));
        watch.sync(store);
        List<WatchEvent> ofA = watch.eventsOf(a);
        List<WatchEvent> ofC = watch.eventsOf(c);
        assertThat(ofA.get(ofA.size() - 1))
                .as("a's last event, of %s", ofA)
                .isEqualTo(WatchEvent.changed(a, value("3")));
        assertThat(ofA.get(0)).isEqualTo(WatchEvent.changed(a, value("1")));
        assertThat(ofC.get(ofC.size() - 1))
                .as("c's last event, of %s", ofC)
                .isEqualTo(WatchEvent.changed(c, value("4")));
        assertThat(ofC).as("c was never heard of while it was deleted").noneMatch(WatchEvent::isDeletion);
    }
}
