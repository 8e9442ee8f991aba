package io.lake.meta.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class PausePointsTest {

    private final PausePoints points = new PausePoints();
    private Thread worker;

    @AfterEach
    void stopWorker() throws InterruptedException {
        if (worker != null) {
            worker.join(TimeUnit.SECONDS.toMillis(30));
            assertThat(worker.isAlive())
                    .as("worker still running after the test")
                    .isFalse();
        }
    }

    private Thread reachInBackground(String point, AtomicBoolean passed) {
        Thread t = new Thread(
                () -> {
                    points.reached(point);
                    passed.set(true);
                },
                "reacher");
        t.start();
        return t;
    }

    @Test
    void armedPoint_holdsTheFirstThreadThatReachesIt_untilReleased() throws InterruptedException {
        PausePoints.Pause pause = points.arm("p");
        AtomicBoolean passed = new AtomicBoolean();
        worker = reachInBackground("p", passed);

        Thread held = pause.awaitArrival();

        assertThat(held).isSameAs(worker);
        assertThat(passed).as("held thread has not passed the point").isFalse();
        assertThat(pause.hasArrived()).isTrue();
        pause.release();
        worker.join(TimeUnit.SECONDS.toMillis(30));
        assertThat(passed).isTrue();
    }

    @Test
    void unarmedPoint_letsEveryThreadThrough() {
        points.reached("p");
        points.reached("q");
    }

    @Test
    void otherPoints_areNotHeld() {
        PausePoints.Pause pause = points.arm("p");

        points.reached("q");

        assertThat(pause.hasArrived()).isFalse();
        pause.release();
    }

    @Test
    void onlyTheFirstArrival_isHeld_laterOnesPassThrough() throws InterruptedException {
        PausePoints.Pause pause = points.arm("p");
        AtomicBoolean firstPassed = new AtomicBoolean();
        worker = reachInBackground("p", firstPassed);
        pause.awaitArrival();

        points.reached("p"); // this thread: passes straight through, or the test would hang

        assertThat(firstPassed).isFalse();
        pause.release();
    }

    @Test
    void releaseBeforeArrival_disarmsThePoint() {
        PausePoints.Pause pause = points.arm("p");

        pause.release();
        points.reached("p");

        assertThat(pause.hasArrived()).isFalse();
    }

    @Test
    void release_isIdempotent() throws InterruptedException {
        PausePoints.Pause pause = points.arm("p");
        AtomicBoolean passed = new AtomicBoolean();
        worker = reachInBackground("p", passed);
        pause.awaitArrival();

        pause.release();
        pause.release();
        worker.join(TimeUnit.SECONDS.toMillis(30));

        assertThat(passed).isTrue();
    }

    @Test
    void armingAnArmedPoint_isRefused_untilItWasReached() throws InterruptedException {
        PausePoints.Pause first = points.arm("p");

        assertThatThrownBy(() -> points.arm("p"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("already armed");

        AtomicBoolean passed = new AtomicBoolean();
        worker = reachInBackground("p", passed);
        first.awaitArrival();
        PausePoints.Pause second = points.arm("p");
        assertThat(second).isNotSameAs(first);
        first.release();
        second.release();
    }

    @Test
    void rearmedPoint_holdsTheNextThread() throws InterruptedException {
        for (int round = 0; round < 3; round++) {
            PausePoints.Pause pause = points.arm("p");
            AtomicBoolean passed = new AtomicBoolean();
            Thread t = reachInBackground("p", passed);
            pause.awaitArrival();
            assertThat(passed).isFalse();
            pause.release();
            t.join(TimeUnit.SECONDS.toMillis(30));
            assertThat(passed).isTrue();
        }
    }

    @Test
    void awaitArrival_failsTheTest_whenNobodyArrives() {
        PausePoints impatient = new PausePoints(Duration.ofMillis(20));
        PausePoints.Pause pause = impatient.arm("never");

        assertThatThrownBy(pause::awaitArrival)
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("no thread reached point 'never'");
    }

    @Test
    void heldThread_isLetGoWithAnError_whenTheTestNeverReleasesIt() throws InterruptedException {
        PausePoints impatient = new PausePoints(Duration.ofMillis(20));
        impatient.arm("p");
        AtomicReference<Throwable> error = new AtomicReference<>();
        CountDownLatch done = new CountDownLatch(1);
        worker = new Thread(() -> {
            try {
                impatient.reached("p");
            } catch (Throwable t) {
                error.set(t);
            } finally {
                done.countDown();
            }
        });
        worker.start();

        assertThat(done.await(30, TimeUnit.SECONDS)).isTrue();
        assertThat(error.get()).isInstanceOf(AssertionError.class).hasMessageContaining("never released");
    }

    @Test
    void safetyTimeout_mustBePositive() {
        assertThatThrownBy(() -> new PausePoints(Duration.ZERO)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new PausePoints(Duration.ofSeconds(-1))).isInstanceOf(IllegalArgumentException.class);
    }
}
