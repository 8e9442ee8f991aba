package io.lake.meta.testkit.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.testkit.lease.ManualTicker;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ManualSchedulerTest {

    private final ManualTicker ticker = new ManualTicker();
    private final ManualScheduler scheduler = new ManualScheduler(ticker);
    private final List<String> ran = new CopyOnWriteArrayList<>();

    @Test
    void tasksRunOnlyWhenTheirTimeCame_inDueOrder() {
        scheduler.schedule(() -> ran.add("b"), 2, TimeUnit.SECONDS);
        scheduler.schedule(() -> ran.add("a"), 1, TimeUnit.SECONDS);

        assertThat(scheduler.runDue()).isZero();
        ticker.advance(Duration.ofMillis(999));
        assertThat(scheduler.runDue()).isZero();
        scheduler.advance(Duration.ofSeconds(5));

        assertThat(ran).containsExactly("a", "b");
        assertThat(scheduler.pendingOneShots()).isZero();
    }

    @Test
    void periodicTasks_runOncePerCall_andAgainAPeriodLater() {
        scheduler.scheduleWithFixedDelay(() -> ran.add("tick"), 3, 3, TimeUnit.SECONDS);

        scheduler.advance(Duration.ofSeconds(10)); // overdue: still one run
        assertThat(ran).hasSize(1);
        scheduler.advance(Duration.ofSeconds(2));
        assertThat(ran).hasSize(1);
        scheduler.advance(Duration.ofSeconds(1));
        assertThat(ran).hasSize(2);
        assertThat(scheduler.pendingOneShots())
                .as("periodic tasks are not one-shots")
                .isZero();
    }

    @Test
    void cancelledTasksDoNotRun_andShutdownRejectsNewOnes() {
        ScheduledFuture<?> cancelled = scheduler.schedule(() -> ran.add("x"), 1, TimeUnit.SECONDS);
        assertThat(scheduler.pendingOneShots()).isEqualTo(1);
        cancelled.cancel(false);
        assertThat(scheduler.pendingOneShots()).isZero();
        scheduler.advance(Duration.ofSeconds(1));
        assertThat(ran).isEmpty();

        scheduler.shutdown();
        assertThat(scheduler.isShutdown()).isTrue();
        assertThatThrownBy(() -> scheduler.schedule(() -> ran.add("y"), 0, TimeUnit.SECONDS))
                .isInstanceOf(RejectedExecutionException.class);
    }

    @Test
    void awaitPendingOneShots_returnsOnceAnotherThreadScheduled() throws Exception {
        Thread other = new Thread(() -> scheduler.schedule(() -> ran.add("z"), 1, TimeUnit.SECONDS));
        other.start();

        scheduler.awaitPendingOneShots(1);
        other.join();

        assertThat(scheduler.pendingOneShots()).isEqualTo(1);
    }
}
