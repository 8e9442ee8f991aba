package io.lake.meta.testkit.lease;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.FencedException;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.fenced.FencedMetaStore;
import io.lake.meta.lease.LeaderElection;
import io.lake.meta.lease.LeadershipListener;
import io.lake.meta.lease.LeaseGuard;
import io.lake.meta.lock.FencedLock;
import io.lake.meta.lock.LockHold;
import io.lake.meta.testkit.InMemoryMetaStore;
import io.lake.meta.testkit.PausePoints;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Issue 23 item 8: listeners run on the recipe's listener executor, never under its locks, in the
 * order events happened, and a guard rejection never waits for a round in progress. Every test
 * uses the default executor. The timeouts are safety nets that turn a deadlock into a failure;
 * the orderings come from pause points.
 */
class ListenerDeliveryTest {

    private static final Duration SAFETY = Duration.ofSeconds(10);
    private static final MetaKey LEASE_KEY = MetaKey.of("lease/writer");
    private static final MetaKey LOCK_KEY = MetaKey.of("lock/tables/orders");
    private static final MetaKey TARGET = MetaKey.of("data/target");
    private static final Duration LEASE = Duration.ofSeconds(10);

    private final MetaStore store = InMemoryMetaStore.create();
    private final ManualClock wall = new ManualClock(1_767_225_600_000L);
    private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "listener-delivery-test");
        t.setDaemon(true);
        return t;
    });
    private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "listener-delivery-scheduler");
        t.setDaemon(true);
        return t;
    });

    @AfterEach
    void stop() {
        threads.shutdownNow();
        scheduler.shutdownNow();
    }

    private LeaderElection election(String id, ManualTicker ticker, MetaStore via, LeadershipListener listener) {
        return LeaderElection.builder()
                .store(via)
                .leaseKey(LEASE_KEY)
                .candidateId(id)
                .leaseDuration(LEASE)
                .clock(wall)
                .ticker(ticker)
                .listener(listener)
                .build();
    }

    /** The guide's "stop my worker on lost": the listener waits for a worker whose fenced write was just rejected. */
    @Test
    void lostListener_thatStopsAWorkerInAFencedWrite_doesNotDeadlock() throws Exception {
        PausePoints points = new PausePoints(SAFETY);
        StopWorkerOnLost stopper = new StopWorkerOnLost();
        ManualTicker tickerA = new ManualTicker();
        LeaderElection a = election("node-a", tickerA, store, stopper);
        a.campaignOnce();
        FencedMetaStore fenced = FencedMetaStore.over(new InFlightHooks(store, points), a);
        PausePoints.Pause inFlight = points.arm(InFlightHooks.BEFORE_GUARDED_WRITE);
        Future<?> worker = threads.submit(() -> fenced.create(TARGET, MetaValue.utf8("work")));
        inFlight.awaitArrival();
        stopper.worker = worker;
        stopper.inFlight = inFlight;
        // node-b takes over once the record expired on the wall clock; a's ticker stood still (a pause)
        wall.advance(LEASE);
        election("node-b", new ManualTicker(), store, new LeadershipEvents()).campaignOnce();

        Future<?> round = threads.submit(a::campaignOnce); // a's round finds b's record: lost 1

        round.get(SAFETY.toSeconds(), TimeUnit.SECONDS);
        assertThat(stopper.stopped.await(SAFETY.toSeconds(), TimeUnit.SECONDS))
                .as("the lost listener stopped its worker (no deadlock)")
                .isTrue();
        assertThatThrownBy(worker::get)
                .isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(FencedException.class);
        assertThat(store.get(TARGET)).isEmpty();
        assertThat(stopper.heardOn.getName())
                .as("delivered on the election's listener thread, not the round's")
                .startsWith("lake-meta-election-listener-node-a");
    }

    @Test
    void lockLostListener_thatStopsAWorkerWritingUnderTheHold_doesNotDeadlock() throws Exception {
        PausePoints points = new PausePoints(SAFETY);
        CountDownLatch stopped = new CountDownLatch(1);
        List<Future<?>> workers = new CopyOnWriteArrayList<>();
        List<PausePoints.Pause> pauses = new CopyOnWriteArrayList<>();
        ManualTicker tickerA = new ManualTicker();
        FencedLock lockA = FencedLock.builder()
                .store(new InFlightHooks(store, points))
                .key(LOCK_KEY)
                .holderId("node-a")
                .leaseDuration(LEASE)
                .clock(wall)
                .ticker(tickerA)
                .scheduler(scheduler)
                .listener((hold, reason) -> {
                    pauses.get(0).release(); // stopBackgroundWork(): let the worker finish, and wait for it
                    try {
                        workers.get(0).get(SAFETY.toSeconds(), TimeUnit.SECONDS);
                    } catch (Exception e) {
                        // the worker's fenced write is refused: that is how it stops
                    }
                    if (workers.get(0).isDone()) {
                        stopped.countDown();
                    }
                })
                .build();
        lockA.start();
        LockHold holdA = lockA.tryAcquire().orElseThrow();
        pauses.add(points.arm(InFlightHooks.BEFORE_GUARDED_WRITE));
        workers.add(threads.submit(() -> holdA.store().create(TARGET, MetaValue.utf8("work"))));
        pauses.get(0).awaitArrival();
        wall.advance(LEASE);
        FencedLock lockB = FencedLock.builder()
                .store(store)
                .key(LOCK_KEY)
                .holderId("node-b")
                .leaseDuration(LEASE)
                .clock(wall)
                .ticker(new ManualTicker())
                .scheduler(scheduler)
                .build();
        lockB.start();
        assertThat(lockB.tryAcquire()).isPresent();

        Future<?> renewal = threads.submit(holdA::renew); // finds b's record: the hold is lost

        renewal.get(SAFETY.toSeconds(), TimeUnit.SECONDS);
        assertThat(stopped.await(SAFETY.toSeconds(), TimeUnit.SECONDS))
                .as("the listener stopped its worker")
                .isTrue();
        assertThatThrownBy(workers.get(0)::get).hasCauseInstanceOf(FencedException.class);
        assertThat(store.get(TARGET)).isEmpty();
        lockB.close();
        lockA.close();
    }

    /** With a direct executor too, the lock's listener runs after the lock's own mutex is released. */
    @Test
    void lockLostListener_onADirectExecutor_runsOutsideTheLocksMutex() throws Exception {
        ManualTicker tickerA = new ManualTicker();
        CountDownLatch listenerDone = new CountDownLatch(1);
        FencedLock[] lockA = new FencedLock[1];
        lockA[0] = FencedLock.builder()
                .store(store)
                .key(LOCK_KEY)
                .holderId("node-a")
                .leaseDuration(LEASE)
                .clock(wall)
                .ticker(tickerA)
                .scheduler(scheduler)
                .listenerExecutor(Runnable::run)
                .listener((hold, reason) -> {
                    // another thread of the holder's asks the lock something that takes its mutex
                    Future<?> other = threads.submit(() -> lockA[0].tryAcquire());
                    try {
                        other.get(SAFETY.toSeconds(), TimeUnit.SECONDS);
                        listenerDone.countDown();
                    } catch (Exception e) {
                        // a timeout here is the deadlock
                    }
                })
                .build();
        lockA[0].start();
        LockHold holdA = lockA[0].tryAcquire().orElseThrow();
        wall.advance(LEASE);
        FencedLock lockB = FencedLock.builder()
                .store(store)
                .key(LOCK_KEY)
                .holderId("node-b")
                .leaseDuration(LEASE)
                .clock(wall)
                .ticker(new ManualTicker())
                .scheduler(scheduler)
                .build();
        lockB.start();
        assertThat(lockB.tryAcquire()).isPresent();

        holdA.renew(); // finds b's record: lost, delivered on this thread

        assertThat(listenerDone.await(0, TimeUnit.SECONDS))
                .as("the listener's other thread got the lock's mutex")
                .isTrue();
        lockB.close();
        lockA[0].close();
    }

    @Test
    void guardRejected_doesNotWaitForARoundInProgress() throws Exception {
        PausePoints points = new PausePoints(SAFETY);
        ManualTicker ticker = new ManualTicker();
        LeaderElection a = election("node-a", ticker, new InFlightHooks(store, points), new LeadershipEvents());
        a.campaignOnce();
        LeaseGuard guard = a.currentGuard().orElseThrow();
        PausePoints.Pause renewing = points.arm(InFlightHooks.BEFORE_WRITE);
        Future<?> round = threads.submit(a::campaignOnce);
        renewing.awaitArrival(); // the round holds the election's round lock, its renewal in flight

        Future<?> rejection = threads.submit(() -> a.guardRejected(guard));

        rejection.get(SAFETY.toSeconds(), TimeUnit.SECONDS); // returned while the round is still held
        assertThat(round.isDone()).isFalse();
        renewing.release();
        round.get(SAFETY.toSeconds(), TimeUnit.SECONDS);
    }

    @Test
    void events_areDeliveredInOrder_offTheRoundThread() throws Exception {
        LeadershipEvents events = new LeadershipEvents();
        ManualTicker ticker = new ManualTicker();
        LeaderElection a = election("node-a", ticker, store, events);
        CountDownLatch four = new CountDownLatch(1);
        a.addListener(new LeadershipListener() {
            private int heard;

            @Override
            public void gained(LeaseGuard guard) {
                if (++heard == 4) {
                    four.countDown();
                }
            }

            @Override
            public void lost(long epoch, String reason) {
                if (++heard == 4) {
                    four.countDown();
                }
            }
        });

        a.campaignOnce();
        a.resign();
        a.campaignOnce();
        a.resign();

        assertThat(four.await(SAFETY.toSeconds(), TimeUnit.SECONDS)).isTrue();
        assertThat(events.events()).containsExactly("gained 1", "lost 1", "gained 2", "lost 2");
        assertThat(events.threads()).allSatisfy(t -> assertThat(t).isNotEqualTo(Thread.currentThread()));
    }

    /** Stops its worker on "lost": lets the held write go on, and waits until the worker ends. */
    private static final class StopWorkerOnLost implements LeadershipListener {
        volatile Future<?> worker;
        volatile PausePoints.Pause inFlight;
        volatile Thread heardOn;
        final CountDownLatch stopped = new CountDownLatch(1);

        @Override
        public void gained(LeaseGuard guard) {}

        @Override
        public void lost(long epoch, String reason) {
            heardOn = Thread.currentThread();
            inFlight.release();
            try {
                worker.get(SAFETY.toSeconds(), TimeUnit.SECONDS);
            } catch (Exception e) {
                // refused: the worker stopped
            }
            if (worker.isDone()) {
                stopped.countDown();
            }
        }
    }
}
