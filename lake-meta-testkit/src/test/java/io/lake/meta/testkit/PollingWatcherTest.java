package io.lake.meta.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.InvalidArgumentException;
import io.lake.meta.KeyPrefix;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaValue;
import io.lake.meta.Page;
import io.lake.meta.PageRequest;
import io.lake.meta.StoreClosedException;
import io.lake.meta.StoreUnavailableException;
import io.lake.meta.spi.ForwardingMetaStore;
import io.lake.meta.spi.PollingWatcher;
import io.lake.meta.watch.Watch;
import io.lake.meta.watch.WatchEvent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The polling watcher over the model store's pages. Its interval is an hour, so nothing polls
 * unless the test calls {@code pollNow()}: what a poll reports is checked without waiting for
 * time to pass. Delivery itself is asynchronous; the test waits for it with a bounded timeout.
 */
class PollingWatcherTest {

    private static final KeyPrefix NS1 = KeyPrefix.of("tbl/ns1/");
    private static final MetaKey A = MetaKey.of("tbl/ns1/a");
    private static final MetaKey B = MetaKey.of("tbl/ns1/b");
    private static final MetaKey C = MetaKey.of("tbl/ns1/c");
    private static final Duration NEVER = Duration.ofHours(1);

    /** The model, counting its pages and failing them on request. */
    private static final class Source extends ForwardingMetaStore {
        final AtomicInteger pages = new AtomicInteger();
        volatile boolean failing;

        Source() {
            super(InMemoryMetaStore.create());
        }

        final AtomicReference<Throwable> errorOnce = new AtomicReference<>();
        final CountDownLatch errorThrown = new CountDownLatch(1);
        final CountDownLatch closedSeen = new CountDownLatch(1);

        @Override
        public Page page(PageRequest request) {
            pages.incrementAndGet();
            if (failing) {
                throw new StoreUnavailableException("throttled, on purpose");
            }
            Throwable error = errorOnce.getAndSet(null);
            if (error != null) {
                errorThrown.countDown();
                throw PollingWatcherTest.<RuntimeException>sneaky(error);
            }
            try {
                return super.page(request);
            } catch (StoreClosedException e) {
                closedSeen.countDown();
                throw e;
            }
        }
    }

    private final Source source = new Source();
    private final PollingWatcher watcher = new PollingWatcher(source, NEVER, "test store");
    private final LinkedBlockingQueue<WatchEvent> heard = new LinkedBlockingQueue<>();

    @AfterEach
    void close() {
        watcher.close();
        source.close();
    }

    private static MetaValue v(String text) {
        return MetaValue.utf8(text);
    }

    private List<WatchEvent> awaitHeard(int count) throws InterruptedException {
        List<WatchEvent> events = new ArrayList<>();
        while (events.size() < count) {
            WatchEvent next = heard.poll(30, TimeUnit.SECONDS);
            assertThat(next)
                    .as("event %d of %d (heard so far: %s)", events.size() + 1, count, events)
                    .isNotNull();
            events.add(next);
        }
        return events;
    }

    /** Polls, then a marker write and another poll: everything the first poll reported arrives before the marker. */
    private List<WatchEvent> pollAndCollect() throws InterruptedException {
        watcher.pollNow();
        MetaKey marker = MetaKey.of("tbl/ns1/~marker-" + System.nanoTime());
        source.create(marker, v("m"));
        watcher.pollNow();
        List<WatchEvent> events = new ArrayList<>();
        while (true) {
            WatchEvent next = heard.poll(30, TimeUnit.SECONDS);
            assertThat(next).as("the marker's event").isNotNull();
            if (next.key().equals(marker)) {
                return events;
            }
            events.add(next);
        }
    }

    @Test
    void watch_readsThePrefixBeforeItReturns_andReportsItAsTheInitialEvents() throws Exception {
        source.create(A, v("a1"));
        source.create(B, v("b1"));
        source.create(MetaKey.of("tbl/ns10/x"), v("sibling"));

        watcher.watch(NS1, heard::add);
        source.create(C, v("c1")); // after the baseline: only a poll reports it

        assertThat(awaitHeard(2))
                .containsExactlyInAnyOrder(WatchEvent.initial(A, v("a1")), WatchEvent.initial(B, v("b1")));
        assertThat(pollAndCollect()).containsExactly(WatchEvent.changed(C, v("c1")));
    }

    @Test
    void aPoll_reportsWhatDiffersFromThePreviousPoll_createdUpdatedAndDeleted_andNothingElse() throws Exception {
        source.create(A, v("a1"));
        source.create(B, v("b1"));
        source.create(C, MetaValue.empty());
        watcher.watch(NS1, heard::add);
        awaitHeard(3);

        source.update(A, v("a1"), v("a2"));
        source.delete(B, v("b1"));
        source.create(MetaKey.of("tbl/ns1/d"), v("d1"));

        assertThat(pollAndCollect())
                .containsExactlyInAnyOrder(
                        WatchEvent.changed(A, v("a2")),
                        WatchEvent.deleted(B),
                        WatchEvent.changed(MetaKey.of("tbl/ns1/d"), v("d1")));
        assertThat(pollAndCollect())
                .as("a poll that finds nothing new reports nothing")
                .isEmpty();
    }

    @Test
    void aChangeUndoneBeforeTheNextPoll_isNotReported_theKeyHoldsWhatTheListenerLastHeard() throws Exception {
        source.create(A, v("1"));
        watcher.watch(NS1, heard::add);
        awaitHeard(1);

        source.update(A, v("1"), v("2"));
        source.update(A, v("2"), v("1"));

        assertThat(pollAndCollect()).isEmpty();
    }

    @Test
    void aFailedPoll_keepsThePreviousView_andALaterPollReportsTheChanges() throws Exception {
        watcher.watch(NS1, heard::add);
        source.create(A, v("1"));
        source.failing = true;

        assertThatThrownBy(watcher::pollNow).isInstanceOf(StoreUnavailableException.class);
        source.failing = false;

        assertThat(pollAndCollect()).containsExactly(WatchEvent.changed(A, v("1")));
    }

    @Test
    void theScheduledPolls_reportChanges_withoutAnyoneAsking() throws Exception {
        try (PollingWatcher quick = new PollingWatcher(source, Duration.ofMillis(10), "quick")) {
            quick.watch(NS1, heard::add);

            source.create(A, v("1"));

            assertThat(awaitHeard(1)).containsExactly(WatchEvent.changed(A, v("1")));
        }
    }

    /** Issue 23, item 4: an Error in one scheduled poll ended the watcher's polls for good, silently. */
    @Test
    void aScheduledPollThatThrowsAnError_isRetried_andLaterChangesAreStillReported() throws Exception {
        try (PollingWatcher quick = new PollingWatcher(source, Duration.ofMillis(1), "quick")) {
            quick.watch(NS1, heard::add);
            source.errorOnce.set(new NoClassDefFoundError("injected into one poll"));
            assertThat(source.errorThrown.await(30, TimeUnit.SECONDS))
                    .as("a scheduled poll hit the error")
                    .isTrue();

            source.create(A, v("after the error"));

            assertThat(awaitHeard(1)).containsExactly(WatchEvent.changed(A, v("after the error")));
        }
    }

    /** Issue 23, item 4: after the store closed, its watches used to be polled (and fail) forever. */
    @Test
    void onceTheStoreIsClosed_aScheduledPollEndsTheWatch_andNothingPollsItAgain() throws Exception {
        try (PollingWatcher quick = new PollingWatcher(source, Duration.ofMillis(1), "quick")) {
            quick.watch(NS1, heard::add);
            source.close();
            assertThat(source.closedSeen.await(30, TimeUnit.SECONDS))
                    .as("a scheduled poll found the store closed")
                    .isTrue();
            int pagesAfterClose = source.pages.get();

            quick.pollNow(); // waits for a poll under way; a watch still open would read (and fail) again

            assertThat(source.pages.get())
                    .as("pages read after the store closed")
                    .isEqualTo(pagesAfterClose);
        }
    }

    @Test
    void aClosedWatch_isPolledNoMore() {
        Watch watch = watcher.watch(NS1, heard::add);
        watch.close();
        int pagesBefore = source.pages.get();

        watcher.pollNow();

        assertThat(source.pages.get()).isEqualTo(pagesBefore);
    }

    @Test
    void aFailedBaseline_failsTheWatchCall_andLeavesNothingRegistered() {
        source.failing = true;

        assertThatThrownBy(() -> watcher.watch(NS1, heard::add)).isInstanceOf(StoreUnavailableException.class);
        source.failing = false;
        int pagesBefore = source.pages.get();
        watcher.pollNow();

        assertThat(source.pages.get()).isEqualTo(pagesBefore);
    }

    @Test
    void aClosedWatcher_closedItsWatches_andRefusesNewOnes() {
        Watch watch = watcher.watch(NS1, heard::add);

        watcher.close();
        watcher.close();
        int pagesBefore = source.pages.get();
        watcher.pollNow();

        assertThat(source.pages.get()).as("no poll of a closed watch").isEqualTo(pagesBefore);
        assertThatThrownBy(() -> watcher.watch(NS1, heard::add)).isInstanceOf(StoreClosedException.class);
        watch.close();
    }

    @Test
    void badArguments_areInvalidArguments() {
        assertThatThrownBy(() -> new PollingWatcher(null, NEVER, "x")).isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> new PollingWatcher(source, null, "x")).isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> new PollingWatcher(source, Duration.ZERO, "x"))
                .isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> new PollingWatcher(source, Duration.ofMillis(-1), "x"))
                .isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> new PollingWatcher(source, NEVER, null)).isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> watcher.watch(null, heard::add)).isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> watcher.watch(NS1, null)).isInstanceOf(InvalidArgumentException.class);
    }

    /**
     * A store written in Kotlin (or using a sneaky throw) can throw a checked exception from
     * {@code page}. Before, the scheduled poll let it escape, and the scheduler dropped every later
     * poll of the watch, silently: the same defect as an Error (issue 23 item 4), by another type.
     */
    @Test
    void aScheduledPollThatThrowsACheckedException_isRetried_andLaterChangesAreStillReported() throws Exception {
        try (PollingWatcher quick = new PollingWatcher(source, Duration.ofMillis(1), "quick")) {
            quick.watch(NS1, heard::add);
            source.errorOnce.set(new java.io.IOException("injected into one poll"));
            assertThat(source.errorThrown.await(30, TimeUnit.SECONDS))
                    .as("a scheduled poll hit the exception")
                    .isTrue();

            source.create(A, v("after the exception"));

            assertThat(awaitHeard(1)).containsExactly(WatchEvent.changed(A, v("after the exception")));
        }
    }

    /**
     * A store whose listing throws a checked exception (a Kotlin store, a sneaky throw) while a
     * watch reads its initial contents: nothing may stay registered. Before, only RuntimeException
     * and Error closed the half-made watch, so it stayed registered, collecting every later change
     * of the prefix for a listener that would never hear them.
     */
    @Test
    void aWatchWhoseInitialReadThrowsACheckedException_leavesNothingRegistered() {
        io.lake.meta.spi.WatchRegistry registry = new io.lake.meta.spi.WatchRegistry("test store");
        source.errorOnce.set(new java.io.IOException("injected into the initial read"));
        Throwable thrown = null;
        try {
            registry.watch(source, NS1, heard::add);
        } catch (Throwable t) {
            thrown = t;
        }
        assertThat(thrown).isInstanceOf(java.io.IOException.class);
        assertThat(registry.hasWatches())
                .as("a watch still registered after its initial read failed")
                .isFalse();
        registry.close();
    }

    @SuppressWarnings("unchecked")
    private static <T extends Throwable> T sneaky(Throwable t) throws T {
        throw (T) t;
    }
}
