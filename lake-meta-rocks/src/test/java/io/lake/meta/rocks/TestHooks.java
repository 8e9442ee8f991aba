package io.lake.meta.rocks;

import io.lake.meta.spi.RaceHooks;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;

/** Race hooks a test scripts per point: pause the first arrival, or just signal arrivals. */
final class TestHooks implements RaceHooks {

    private final Map<String, PauseAt> pauses = new ConcurrentHashMap<>();
    private final Map<String, CountDownLatch> signals = new ConcurrentHashMap<>();

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

    @Override
    public void reached(String point) {
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
