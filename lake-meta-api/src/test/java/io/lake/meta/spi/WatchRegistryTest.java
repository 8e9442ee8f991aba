package io.lake.meta.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.Entry;
import io.lake.meta.InvalidArgumentException;
import io.lake.meta.KeyPrefix;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaValue;
import io.lake.meta.Mutation;
import io.lake.meta.StoreClosedException;
import io.lake.meta.watch.Watch;
import io.lake.meta.watch.WatchEvent;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Delivery by the registry, run step by step on a manual executor. */
class WatchRegistryTest {

    private static final KeyPrefix NS1 = KeyPrefix.of("tbl/ns1/");
    private static final MetaKey A = MetaKey.of("tbl/ns1/a");
    private static final MetaKey B = MetaKey.of("tbl/ns1/b");
    private static final MetaKey C = MetaKey.of("tbl/ns1/c");

    private final ManualExecutor executor = new ManualExecutor();
    private final WatchRegistry registry = new WatchRegistry("test store", () -> executor);
    private final List<WatchEvent> heard = new ArrayList<>();

    private static MetaValue v(String text) {
        return MetaValue.utf8(text);
    }

    private static WatchEvent changed(MetaKey key, String value) {
        return WatchEvent.changed(key, v(value));
    }

    private DispatchedWatch registered() {
        return registry.register(NS1, heard::add, () -> {});
    }

    @Test
    void nothingIsDelivered_beforeTheWatchStarts_thenTheInitialContentsFirst_thenTheChanges() {
        DispatchedWatch watch = registered();
        registry.publish(List.of(changed(B, "b2")));
        watch.addInitial(new Entry(A, v("a1")));
        watch.addInitial(new Entry(B, v("b1"))); // older than the change already collected for b
        watch.addInitial(new Entry(C, v("c1")));
        executor.runAll();
        assertThat(heard).isEmpty();

        watch.start();
        executor.runAll();

        assertThat(heard)
                .containsExactly(WatchEvent.initial(A, v("a1")), WatchEvent.initial(C, v("c1")), changed(B, "b2"));
    }

    @Test
    void publishing_neverCallsTheListener_andAListenerThatFellBehind_getsEachKeysLatestValue_eachKeyKeepingItsPlace() {
        registered().start();

        registry.publish(List.of(changed(A, "1")));
        registry.publish(List.of(changed(B, "1")));
        registry.publish(List.of(changed(A, "2"), changed(C, "1")));
        assertThat(heard).as("heard on the publishing thread").isEmpty();
        assertThat(executor.queued()).as("one drain task for the whole backlog").isEqualTo(1);
        executor.runAll();

        assertThat(heard).containsExactly(changed(A, "2"), changed(B, "1"), changed(C, "1"));
    }

    /**
     * Issue 23, item 1: a key rewritten while its event is pending used to move to the end of the
     * queue, so with writers faster than the listener the hottest key was never delivered. The
     * writes here are driven from the listener itself (one cold key and the hot key per delivery),
     * so the schedule is exact: each change must be heard within as many deliveries as there are
     * keys under the prefix.
     */
    @Test
    void aListenerSlowerThanTheWriters_hearsEveryChangedKey_theHottestIncluded_withinAsManyDeliveriesAsThereAreKeys() {
        MetaKey hot = MetaKey.of("tbl/ns1/hot");
        List<MetaKey> cold = List.of(A, B, C);
        int rounds = 300;
        List<Integer> hotWrittenAt = new ArrayList<>(); // the delivery count when hot was written, per value
        DispatchedWatch watch = registry.register(
                NS1,
                event -> {
                    heard.add(event);
                    int round = heard.size();
                    if (round <= rounds) {
                        hotWrittenAt.add(heard.size());
                        registry.publish(List.of(
                                changed(cold.get(round % cold.size()), String.valueOf(round)),
                                changed(hot, String.valueOf(round))));
                    }
                },
                () -> {});
        watch.start();
        registry.publish(List.of(changed(A, "0"), changed(B, "0"), changed(C, "0"), changed(hot, "0")));

        executor.runAll();

        int keys = cold.size() + 1;
        for (int value = 1; value <= rounds; value++) {
            int writtenAt = hotWrittenAt.get(value - 1);
            int heardAt = firstHeard(hot, value, writtenAt);
            assertThat(heardAt - writtenAt)
                    .as("deliveries between writing %s = %d and hearing it", hot, value)
                    .isLessThanOrEqualTo(keys);
        }
    }

    /**
     * Issue 23, item 2: a blocked listener's watch kept a deletion event for every key created and
     * deleted under the prefix, keys the listener never heard of included. A deletion of a key the
     * listener never saw, whose creation is still pending, cancels out: what stays queued is bounded
     * by the listener's view plus the prefix.
     */
    @Test
    void keysCreatedAndDeletedBehindABusyListenersBack_costNothing_soWhatIsQueuedIsBoundedByItsViewAndThePrefix() {
        DispatchedWatch watch = registered();
        watch.start();
        registry.publish(List.of(changed(A, "seen")));
        executor.runAll(); // the listener now knows a

        for (int i = 0; i < 20_000; i++) {
            MetaKey churn = MetaKey.of("tbl/ns1/churn/" + i);
            registry.publish(List.of(changed(churn, "brief")));
            registry.publish(List.of(WatchEvent.deleted(churn)));
        }
        registry.publish(List.of(changed(B, "kept"), WatchEvent.deleted(A)));

        assertThat(watch.queuedEvents()).as("events queued for the listener").isEqualTo(2);
        executor.runAll();
        assertThat(heard).containsExactly(changed(A, "seen"), changed(B, "kept"), WatchEvent.deleted(A));
        assertThat(watch.keysHeard())
                .as("keys the watch remembers the listener knows")
                .isEqualTo(1);
    }

    @Test
    void aKeyTheListenerHeardOf_isReportedDeleted_evenWhenItWasRecreatedAndDeletedAgainMeanwhile() {
        DispatchedWatch watch = registered();
        watch.start();
        registry.publish(List.of(changed(A, "1")));
        executor.runAll();

        registry.publish(List.of(WatchEvent.deleted(A)));
        registry.publish(List.of(changed(A, "2")));
        registry.publish(List.of(WatchEvent.deleted(A)));
        executor.runAll();
        registry.publish(List.of(changed(A, "3")));
        executor.runAll();

        assertThat(heard).containsExactly(changed(A, "1"), WatchEvent.deleted(A), changed(A, "3"));
    }

    @Test
    void aKeyFoundByTheInitialRead_andDeletedBeforeItWasDelivered_isNeitherReportedNorQueued() {
        DispatchedWatch watch = registered();
        watch.addInitial(new Entry(A, v("a1")));
        watch.addInitial(new Entry(B, v("b1")));
        watch.start();

        registry.publish(List.of(WatchEvent.deleted(A)));
        assertThat(watch.queuedEvents()).isEqualTo(1);
        executor.runAll();

        assertThat(heard).containsExactly(WatchEvent.initial(B, v("b1")));
    }

    @Test
    void aDeletionPublishedWhileTheInitialReadRuns_isKept_forTheReadMayHaveFoundTheKeyBeforeIt() {
        DispatchedWatch watch = registered();
        registry.publish(List.of(changed(A, "a2")));
        registry.publish(List.of(WatchEvent.deleted(A)));
        watch.addInitial(new Entry(A, v("a1"))); // the read found a before the deletion
        watch.addInitial(new Entry(B, v("b1")));
        watch.start();
        executor.runAll();

        assertThat(heard)
                .as("a's initial value is superseded by its deletion, which says nothing to a listener"
                        + " that never heard of a")
                .containsExactly(WatchEvent.initial(B, v("b1")));
        registry.publish(List.of(changed(A, "a3")));
        executor.runAll();
        assertThat(heard).endsWith(changed(A, "a3"));
    }

    /**
     * Issue 23, item 3: publishing synchronized on the {@code Watch} handed to the caller, so a
     * caller holding its handle's monitor stopped every write of the store, other prefixes included.
     * The publisher runs on a thread of its own; the test holds the handle's monitor and waits until
     * that thread has either finished or is blocked.
     */
    @Test
    void aCallerHoldingItsWatchHandlesMonitor_holdsUpNoPublisher_ofItsPrefixOrAnother() throws Exception {
        DispatchedWatch watch = registered();
        Watch handle = watch.start();
        Thread publisher = new Thread(
                () -> {
                    registry.publish(List.of(changed(MetaKey.of("tbl/ns2/x"), "elsewhere")));
                    registry.publish(List.of(changed(A, "1")));
                },
                "publisher");

        synchronized (handle) {
            publisher.start();
            Thread.State state = awaitEndedOrStuckOn(publisher, handle);
            assertThat(state)
                    .as("the publisher while the caller holds its watch handle's monitor")
                    .isEqualTo(Thread.State.TERMINATED);
        }
        executor.runAll();
        assertThat(heard).containsExactly(changed(A, "1"));
    }

    /**
     * The thread's state once it ended, or once it is stuck on {@code monitor}: blocked or waiting on
     * that object. Blocked on another lock (a class being loaded or initialised on its first run) is
     * not stuck: it goes on.
     */
    private static Thread.State awaitEndedOrStuckOn(Thread thread, Object monitor) {
        java.lang.management.ThreadMXBean threads = java.lang.management.ManagementFactory.getThreadMXBean();
        long giveUp = System.nanoTime()
                + java.util.concurrent.TimeUnit.SECONDS.toNanos(30); // stuck elsewhere: fail, never hang
        while (System.nanoTime() < giveUp) {
            java.lang.management.ThreadInfo info = threads.getThreadInfo(thread.getId());
            if (info == null || thread.getState() == Thread.State.TERMINATED) {
                return Thread.State.TERMINATED;
            }
            java.lang.management.LockInfo lock = info.getLockInfo();
            if (lock != null
                    && lock.getIdentityHashCode() == System.identityHashCode(monitor)
                    && lock.getClassName().equals(monitor.getClass().getName())) {
                return info.getThreadState();
            }
            Thread.onSpinWait();
        }
        return thread.getState();
    }

    /**
     * Issue 23, item 5: an executor that fails to take the delivery task (a cached pool that cannot
     * start a thread throws OutOfMemoryError; an InternalError here, which JUnit does not treat as
     * fatal) made publish throw into the committer after its batch was written, and left the watch
     * marked as scheduled, so it never delivered again.
     */
    @Test
    void anExecutorThatFailsOnce_neitherFailsThePublisher_norStopsTheWatchFromDeliveringLater() {
        registered().start();
        executor.failNextExecute(new InternalError("injected: the pool could not start a delivery thread"));

        registry.publish(List.of(changed(A, "1")));
        registry.publish(List.of(changed(B, "1")));
        executor.runAll();

        assertThat(heard).containsExactly(changed(A, "1"), changed(B, "1"));
    }

    /** The index in {@link #heard} of the first event at or after {@code from} for {@code key} with a value of at least {@code value}. */
    private int firstHeard(MetaKey key, int value, int from) {
        for (int i = from; i < heard.size(); i++) {
            WatchEvent event = heard.get(i);
            if (event.key().equals(key)
                    && Integer.parseInt(event.value().orElseThrow().asUtf8()) >= value) {
                return i;
            }
        }
        return Integer.MAX_VALUE;
    }

    @Test
    void changesOutsideThePrefix_areDropped() {
        registered().start();

        registry.publish(List.of(
                changed(MetaKey.of("tbl/ns10/a"), "x"),
                changed(MetaKey.of("ops/ns1/a"), "x"),
                changed(MetaKey.of("tbl/ns1"), "x"),
                changed(A, "in")));
        executor.runAll();

        assertThat(heard).containsExactly(changed(A, "in"));
    }

    @Test
    void close_dropsWhatWasPending_isIdempotent_andUnregisters() {
        DispatchedWatch watch = registered();
        watch.start();
        registry.publish(List.of(changed(A, "1")));

        watch.close();
        watch.close();
        registry.publish(List.of(changed(B, "1")));
        executor.runAll();

        assertThat(heard).isEmpty();
        assertThat(registry.hasWatches()).isFalse();
    }

    @Test
    void aListenerClosingItsOwnWatch_hearsNothingMore() {
        Watch[] self = new Watch[1];
        DispatchedWatch watch = registry.register(
                NS1,
                event -> {
                    heard.add(event);
                    self[0].close();
                },
                () -> {});
        self[0] = watch.start();

        registry.publish(List.of(changed(A, "1"), changed(B, "1")));
        executor.runAll();

        assertThat(heard).containsExactly(changed(A, "1"));
    }

    @Test
    void aListenerThatThrows_losesThatEventOnly() {
        registry.register(
                        NS1,
                        event -> {
                            heard.add(event);
                            if (event.key().equals(A)) {
                                throw new IllegalStateException("listener bug");
                            }
                        },
                        () -> {})
                .start();

        registry.publish(List.of(changed(A, "1"), changed(B, "1")));
        executor.runAll();
        registry.publish(List.of(changed(A, "2")));
        executor.runAll();

        assertThat(heard).containsExactly(changed(A, "1"), changed(B, "1"), changed(A, "2"));
    }

    @Test
    void aListenerThatThrowsAnError_endsItsWatch_andTheErrorPropagates() {
        DispatchedWatch watch = registry.register(
                NS1,
                event -> {
                    heard.add(event);
                    throw new AssertionError("an Error, not an exception");
                },
                () -> {});
        watch.start();

        registry.publish(List.of(changed(A, "1"), changed(B, "1")));

        assertThatThrownBy(executor::runAll).isInstanceOf(AssertionError.class);
        assertThat(watch.isClosed()).isTrue();
        assertThat(heard).containsExactly(changed(A, "1"));
    }

    @Test
    void closingTheRegistry_closesEveryWatch_andRefusesNewOnes() {
        DispatchedWatch first = registered();
        first.start();
        DispatchedWatch loading = registered(); // still reading its initial contents
        registry.publish(List.of(changed(A, "1")));

        registry.close();
        registry.close();
        executor.runAll();

        assertThat(heard).isEmpty();
        assertThat(first.isClosed()).isTrue();
        assertThatThrownBy(loading::start)
                .isInstanceOf(StoreClosedException.class)
                .hasMessageContaining("test store");
        assertThatThrownBy(this::registered).isInstanceOf(StoreClosedException.class);
        assertThat(executor.isShutdown()).isTrue();
    }

    @Test
    void nullArguments_areInvalidArguments_andRegisterNothing() {
        assertThatThrownBy(() -> registry.register(null, heard::add, () -> {}))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("prefix");
        assertThatThrownBy(() -> registry.register(NS1, null, () -> {}))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("listener");
        assertThat(registry.hasWatches()).isFalse();
        assertThatThrownBy(() -> registry.watch(null, NS1, heard::add))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("source");
        assertThatThrownBy(() -> registry.publish(null)).isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> WatchRegistry.changesOf(null)).isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> WatchRegistry.changesOf(java.util.Arrays.asList(Mutation.create(A, v("1")), null)))
                .isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> new WatchRegistry(null)).isInstanceOf(InvalidArgumentException.class);
    }

    @Test
    void theChangesOfMutations_areTheirNewValues_orDeletions() {
        assertThat(WatchRegistry.changesOf(List.of(
                        Mutation.create(A, v("1")), Mutation.update(B, v("1"), v("2")), Mutation.delete(C, v("3")))))
                .containsExactly(changed(A, "1"), changed(B, "2"), WatchEvent.deleted(C));
    }

    /**
     * A listener written in Kotlin (or using a sneaky throw) can throw a checked exception from
     * {@code onChange}: neither a RuntimeException nor an Error. Before, it escaped the delivery
     * task with the watch still marked scheduled, so the watch never delivered again, silently.
     * It must be treated as a listener failure: logged, that event dropped, later events still come.
     */
    @Test
    void aListenerThatThrowsACheckedException_keepsHearingLaterEvents() {
        DispatchedWatch watch = registry.register(
                NS1,
                event -> {
                    heard.add(event);
                    if (event.key().equals(A)) {
                        throw WatchRegistryTest.<RuntimeException>sneaky(
                                new java.io.IOException("a Kotlin listener's IOException"));
                    }
                },
                () -> {});
        watch.start();
        registry.publish(List.of(changed(A, "1")));
        Throwable escaped = null;
        try {
            executor.runAll();
        } catch (Throwable t) {
            escaped = t;
        }
        registry.publish(List.of(changed(B, "1")));
        executor.runAll();

        assertThat(heard)
                .as("events heard (the delivery task let %s escape)", escaped)
                .containsExactly(changed(A, "1"), changed(B, "1"));
    }

    @SuppressWarnings("unchecked")
    private static <T extends Throwable> T sneaky(Throwable t) throws T {
        throw (T) t;
    }
}
