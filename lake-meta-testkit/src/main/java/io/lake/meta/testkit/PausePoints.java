package io.lake.meta.testkit;

import io.lake.meta.spi.RaceHooks;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * {@link RaceHooks} that let a test stop a thread at a named point, so a race is proven by
 * ordering events rather than by sleeping.
 *
 * <pre>{@code
 * PausePoints points = new PausePoints();
 * MetaStore store = open(points);
 * PausePoints.Pause pause = points.arm(RaceHooks.COMMIT_CHECKED);
 * Future<WriteResult> a = executor.submit(() -> store.update(key, v0, vA));
 * pause.awaitArrival();        // some thread (perhaps a committer thread) is now held inside A's commit
 * ...                          // start the competing operation
 * pause.release();             // let the held thread go on
 * }</pre>
 *
 * <p>Arming a point makes the <em>next</em> thread that reaches it block until the test releases
 * it; later arrivals pass through. The thread that blocks need not be the caller's thread: a
 * backend may commit on its own thread. Waiting methods take a timeout only as a safety net:
 * when it expires, the awaited event never happened and the method throws {@link AssertionError}.
 *
 * <p>Thread-safe.
 *
 * @since 0.1.0
 */
public final class PausePoints implements RaceHooks {

    /** How long a waiting method waits before it fails the test: a safety net, never an ordering tool. */
    public static final Duration DEFAULT_SAFETY_TIMEOUT = Duration.ofSeconds(30);

    private final Map<String, Pause> armed = new ConcurrentHashMap<>();
    private final Duration safetyTimeout;

    /** Pause points with {@link #DEFAULT_SAFETY_TIMEOUT}. */
    public PausePoints() {
        this(DEFAULT_SAFETY_TIMEOUT);
    }

    /** Pause points whose waiting methods fail after {@code safetyTimeout}. */
    public PausePoints(Duration safetyTimeout) {
        if (Objects.requireNonNull(safetyTimeout, "safetyTimeout").isNegative() || safetyTimeout.isZero()) {
            throw new IllegalArgumentException("safety timeout must be positive, got " + safetyTimeout);
        }
        this.safetyTimeout = safetyTimeout;
    }

    /**
     * Arms {@code point}: the next thread that reaches it blocks until {@link Pause#release()}.
     *
     * @throws IllegalStateException if {@code point} is already armed and nobody has reached it yet
     */
    public Pause arm(String point) {
        Objects.requireNonNull(point, "point");
        Pause pause = new Pause(point);
        if (armed.putIfAbsent(point, pause) != null) {
            throw new IllegalStateException("point '" + point + "' is already armed; "
                    + "wait for the arrival of the pending pause or release it first");
        }
        return pause;
    }

    @Override
    public void reached(String point) {
        Pause pause = armed.get(point);
        if (pause != null && armed.remove(point, pause)) {
            pause.hold();
        }
    }

    /** One armed pause: the first thread to reach its point after arming. */
    public final class Pause {

        private final String point;
        private final CountDownLatch arrived = new CountDownLatch(1);
        private final CountDownLatch released = new CountDownLatch(1);
        private final AtomicReference<Thread> holder = new AtomicReference<>();

        private Pause(String point) {
            this.point = point;
        }

        /** The point this pause is armed at. */
        public String point() {
            return point;
        }

        /**
         * Waits until a thread reached the point and is held there.
         *
         * @return the held thread
         * @throws AssertionError if no thread arrives within the safety timeout
         */
        public Thread awaitArrival() {
            await(arrived, "no thread reached point '" + point + "'");
            return Objects.requireNonNull(holder.get()); // set before the arrival was counted
        }

        /** Whether a thread has reached the point (and is held, unless released). */
        public boolean hasArrived() {
            return arrived.getCount() == 0;
        }

        /**
         * Lets the held thread go on; a thread arriving later passes straight through. Also
         * disarms the point if nobody has reached it yet. Idempotent.
         */
        public void release() {
            armed.remove(point, this);
            released.countDown();
        }

        private void hold() {
            holder.set(Thread.currentThread());
            arrived.countDown();
            try {
                if (!released.await(safetyTimeout.toMillis(), TimeUnit.MILLISECONDS)) {
                    // The test never released us: let the thread go on rather than hang the suite.
                    throw new AssertionError(
                            "the thread held at point '" + point + "' was never released within " + safetyTimeout);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while held at point '" + point + "'", e);
            }
        }

        @Override
        public String toString() {
            return "Pause[" + point + (hasArrived() ? ", arrived" : ", armed") + "]";
        }
    }

    private void await(CountDownLatch latch, String failure) {
        try {
            if (!latch.await(safetyTimeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new AssertionError(failure + " within " + safetyTimeout);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while waiting: " + failure, e);
        }
    }
}
