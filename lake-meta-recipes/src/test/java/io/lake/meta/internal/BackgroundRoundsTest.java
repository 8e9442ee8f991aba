package io.lake.meta.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** The one background-round scheduler of the recipes: failing rounds go on; close stops what it owns. */
class BackgroundRoundsTest {

    private static final Duration SHORT = Duration.ofMillis(1);

    @Test
    void aRoundThatFails_withAnExceptionOrAnError_doesNotStopTheRounds() throws InterruptedException {
        try (BackgroundRounds rounds = BackgroundRounds.of(null, "rounds-test", LoggerFactory.getLogger(getClass()))) {
            AtomicInteger calls = new AtomicInteger();
            CountDownLatch third = new CountDownLatch(1);
            rounds.every(Duration.ZERO, SHORT, "test round", "retrying next round", () -> {
                int call = calls.incrementAndGet();
                if (call == 1) {
                    throw new IllegalStateException("store unavailable");
                }
                if (call == 2) {
                    throw new AssertionError("an Error short of a VirtualMachineError");
                }
                third.countDown();
            });
            assertThat(third.await(10, TimeUnit.SECONDS))
                    .as("a third round ran after two failed")
                    .isTrue();
        }
    }

    @Test
    void close_shutsDownTheOwnedThread() throws InterruptedException {
        BackgroundRounds rounds = BackgroundRounds.of(null, "rounds-test", LoggerFactory.getLogger(getClass()));
        CountDownLatch ran = new CountDownLatch(1);
        ScheduledFuture<?> future = rounds.every(Duration.ZERO, SHORT, "test round", "retrying", ran::countDown);
        assertThat(ran.await(10, TimeUnit.SECONDS)).isTrue();
        rounds.close();
        rounds.close(); // idempotent
        assertThat(future.isCancelled()).isTrue();
        assertThat(rounds.scheduler().awaitTermination(10, TimeUnit.SECONDS))
                .as("the owned thread ended")
                .isTrue();
    }

    @Test
    void close_cancelsTheRoundsOnASuppliedScheduler_butLeavesItRunning() {
        ScheduledExecutorService supplied = Executors.newSingleThreadScheduledExecutor();
        try {
            BackgroundRounds rounds = BackgroundRounds.of(supplied, "unused", LoggerFactory.getLogger(getClass()));
            ScheduledFuture<?> future =
                    rounds.every(Duration.ofHours(1), Duration.ofHours(1), "test round", "retrying", () -> {});
            rounds.close();
            assertThat(future.isCancelled()).isTrue();
            assertThat(supplied.isShutdown()).as("the caller's scheduler").isFalse();
            ScheduledFuture<?> late =
                    rounds.every(Duration.ofHours(1), Duration.ofHours(1), "late", "retrying", () -> {});
            assertThat(late.isCancelled())
                    .as("rounds scheduled after close are cancelled at once")
                    .isTrue();
        } finally {
            supplied.shutdownNow();
        }
    }
}
