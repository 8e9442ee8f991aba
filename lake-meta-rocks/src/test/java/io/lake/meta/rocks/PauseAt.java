package io.lake.meta.rocks;

import io.lake.meta.spi.RaceHooks;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Race hooks that pause the first thread reaching a named point until the test releases it.
 * Waits are bounded so a broken ordering fails the test instead of hanging the build.
 */
final class PauseAt implements RaceHooks {

    private static final long WAIT_SECONDS = 30;

    private final String point;
    private final AtomicInteger reached = new AtomicInteger();
    private final CountDownLatch arrived = new CountDownLatch(1);
    private final CountDownLatch released = new CountDownLatch(1);

    PauseAt(String point) {
        this.point = point;
    }

    @Override
    public void reached(String name) {
        if (!name.equals(point) || reached.getAndIncrement() != 0) {
            return;
        }
        arrived.countDown();
        await(released, "the test to release " + point);
    }

    /** Blocks until a thread is paused at the point. */
    void awaitArrival() {
        await(arrived, "a thread to reach " + point);
    }

    void release() {
        released.countDown();
    }

    int timesReached() {
        return reached.get();
    }

    static void await(CountDownLatch latch, String what) {
        try {
            if (!latch.await(WAIT_SECONDS, TimeUnit.SECONDS)) {
                throw new AssertionError("timed out waiting for " + what);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted waiting for " + what, e);
        }
    }
}
