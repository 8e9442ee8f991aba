package io.lake.meta.rocks;

import io.lake.meta.spi.RaceHooks;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/** Race hooks a test scripts per point: pause the first arrival, or just signal arrivals. */
final class TestHooks implements RaceHooks {

    private final Map<String, PauseAt> pauses = new ConcurrentHashMap<>();
    private final Map<String, CountDownLatch> signals = new ConcurrentHashMap<>();
    private final Map<String, Semaphore> arrivals = new ConcurrentHashMap<>();

    /** Pauses the first thread that reaches {@code point} until the returned pause is released. */
    PauseAt pause(String point) {
        PauseAt pause = new PauseAt(point);
        if (pauses.putIfAbsent(point, pause) != null) {
            throw new IllegalStateException("already pausing at " + point);
        }
        return pause;
    }

    /** A latch counted down each time a thread reaches {@code point}, without pausing it. */
    CountDownLatch signal(String point, int count) {
        CountDownLatch latch = new CountDownLatch(count);
        if (signals.putIfAbsent(point, latch) != null) {
            throw new IllegalStateException("already signalling " + point);
        }
        return latch;
    }

    /** Blocks until {@code n} more threads reached {@code point} (counting from the previous call). */
    void awaitArrivals(String point, int n) {
        try {
            if (!arrivalsAt(point).tryAcquire(n, 30, TimeUnit.SECONDS)) {
                throw new AssertionError("timed out waiting for " + n + " arrivals at " + point);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    private Semaphore arrivalsAt(String point) {
        return arrivals.computeIfAbsent(point, p -> new Semaphore(0));
    }

    @Override
    public void reached(String point) {
        arrivalsAt(point).release();
        CountDownLatch signal = signals.get(point);
        if (signal != null) {
            signal.countDown();
        }
        PauseAt pause = pauses.get(point);
        if (pause != null) {
            pause.reached(point);
        }
    }
}
