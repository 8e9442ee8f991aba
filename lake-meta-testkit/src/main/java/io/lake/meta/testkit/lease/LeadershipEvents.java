package io.lake.meta.testkit.lease;

import io.lake.meta.lease.LeadershipListener;
import io.lake.meta.lease.LeaseGuard;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Records what a {@link LeadershipListener} heard, as {@code "gained 3"} / {@code "lost 3"}, and
 * the thread that delivered each event. Thread-safe.
 *
 * @since 0.1.0
 */
public final class LeadershipEvents implements LeadershipListener {

    private final List<String> events = new CopyOnWriteArrayList<>();
    private final List<Thread> threads = new CopyOnWriteArrayList<>();
    private final CountDownLatch firstGain = new CountDownLatch(1);

    @Override
    public void gained(LeaseGuard guard) {
        events.add("gained " + guard.epoch());
        threads.add(Thread.currentThread());
        firstGain.countDown();
    }

    @Override
    public void lost(long epoch, String reason) {
        events.add("lost " + epoch);
        threads.add(Thread.currentThread());
    }

    /** Everything heard, in order. */
    public List<String> events() {
        return List.copyOf(events);
    }

    /** The threads that delivered the events, in order. */
    public List<Thread> threads() {
        return List.copyOf(threads);
    }

    /**
     * Waits for the first "gained" event; the timeout is a safety net, not an ordering tool.
     *
     * @throws AssertionError if none arrives in time
     */
    public void awaitFirstGain(Duration safetyTimeout) throws InterruptedException {
        if (!firstGain.await(safetyTimeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError("no leadership gained within " + safetyTimeout + "; heard " + events);
        }
    }
}
