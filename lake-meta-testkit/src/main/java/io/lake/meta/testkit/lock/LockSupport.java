package io.lake.meta.testkit.lock;

import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.lease.LeaseRecord;
import io.lake.meta.lock.FencedLock;
import io.lake.meta.lock.LockHold;
import io.lake.meta.lock.LockListener;
import io.lake.meta.spi.RaceHooks;
import io.lake.meta.testkit.BackendSuite;
import io.lake.meta.testkit.lease.ManualClock;
import io.lake.meta.testkit.lease.ManualTicker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * The plumbing the lock suite shares: a fresh store per test, a shared manual wall clock, and
 * nodes (processes), each with its own manual ticker and a {@link ManualScheduler} on it, so a
 * lock's renewals and acquisition retries run only when a test lets time pass for that node.
 * Locks are closed after each test. Backends do not extend this class: they extend
 * {@link FencedLockSuite}.
 */
abstract class LockSupport extends BackendSuite {

    protected static final MetaKey LOCK_KEY = MetaKey.of("lock/tables/orders");
    protected static final Duration LEASE = Duration.ofSeconds(10);
    protected static final Duration RENEW = Duration.ofSeconds(3);
    protected static final Duration RETRY = Duration.ofSeconds(1);
    /** 2026-01-01T00:00:00Z: any fixed instant would do. */
    protected static final long START_MILLIS = 1_767_225_600_000L;

    /** The raw store under test; fresh and empty for each test. */
    protected MetaStore store;

    /** The wall clock every node reads. */
    protected ManualClock wall;

    private final List<FencedLock> locks = new ArrayList<>();
    private final List<ExecutorService> threads = new ArrayList<>();

    @BeforeEach
    final void openLockStore() throws Exception {
        wall = new ManualClock(START_MILLIS);
        store = openStore(RaceHooks.NONE, wall);
    }

    @AfterEach
    final void closeLockStore() {
        try {
            threads.forEach(ExecutorService::shutdownNow);
            locks.forEach(FencedLock::close);
        } finally {
            if (store != null) {
                store.close();
            }
        }
    }

    /** One process: its own monotonic ticker and the scheduler its locks share. */
    protected static final class Node {
        final String id;
        final ManualTicker ticker = new ManualTicker();
        final ManualScheduler scheduler = new ManualScheduler(ticker);

        private Node(String id) {
            this.id = id;
        }
    }

    /** A node of the suite: a candidate with its own scheduler and ticker. */
    protected Node node(String id) {
        return new Node(id);
    }

    /** A started lock of {@code node} on {@code key}, on the raw store, with the suite's settings. */
    protected FencedLock lock(Node node, MetaKey key) {
        return lock(node, key, store, b -> b);
    }

    /**
     * A started lock of {@code node} on {@code key} through {@code via} (the raw store or a
     * wrapper around it); {@code extra} may add builder options.
     */
    protected FencedLock lock(Node node, MetaKey key, MetaStore via, UnaryOperator<FencedLock.Builder> extra) {
        FencedLock lock = unstarted(node, key, via, extra);
        lock.start();
        return lock;
    }

    /** As {@link #lock(Node, MetaKey, MetaStore, UnaryOperator)}, not started. */
    protected FencedLock unstarted(Node node, MetaKey key, MetaStore via, UnaryOperator<FencedLock.Builder> extra) {
        FencedLock.Builder b = FencedLock.builder()
                .store(via)
                .key(key)
                .holderId(node.id)
                .leaseDuration(LEASE)
                .renewInterval(RENEW)
                .retryInterval(RETRY)
                .clock(wall)
                .ticker(node.ticker)
                .scheduler(node.scheduler)
                .listenerExecutor(
                        Runnable::run); // events delivered before the call returns: the suite asserts them at once
        FencedLock lock = extra.apply(b).build();
        locks.add(lock);
        return lock;
    }

    /**
     * Lets {@code d} pass on the wall clock and for every awake node: their tickers move and their
     * due tasks run, on this thread. A node left out is paused (a GC pause, a frozen VM): its
     * ticker stands still and its tasks do not run. Steps should not exceed the renew interval.
     */
    protected void elapse(Duration d, Node... awake) {
        wall.advance(d);
        for (Node n : awake) {
            n.ticker.advance(d);
        }
        for (Node n : awake) {
            n.scheduler.runDue();
        }
    }

    /** A single thread for one side of a race; shut down after the test. */
    protected ExecutorService thread() {
        ExecutorService t = Executors.newSingleThreadExecutor(r -> {
            Thread th = new Thread(r, "lock-test-racer");
            th.setDaemon(true);
            return th;
        });
        threads.add(t);
        return t;
    }

    /** The lock record under {@code key}, decoded. */
    protected LeaseRecord lockRecord(MetaKey key) {
        return LeaseRecord.decode(key, lockBytes(key));
    }

    /** The lock record's bytes under {@code key}; fails the test when there is none. */
    protected MetaValue lockBytes(MetaKey key) {
        return store.get(key).orElseThrow(() -> new AssertionError("no lock record under " + key));
    }

    /** The UTF-8 bytes of {@code text}. */
    protected static MetaValue value(String text) {
        return MetaValue.utf8(text);
    }

    /** Records which holds were lost, as {@code "lost <epoch>"}, and on which thread. Thread-safe. */
    protected static final class LossEvents implements LockListener {
        private final List<String> events = new CopyOnWriteArrayList<>();
        private final List<LockHold> holds = new CopyOnWriteArrayList<>();

        @Override
        public void lost(LockHold hold, String reason) {
            events.add("lost " + hold.epoch());
            holds.add(hold);
        }

        List<String> events() {
            return List.copyOf(events);
        }

        List<LockHold> holds() {
            return List.copyOf(holds);
        }
    }
}
