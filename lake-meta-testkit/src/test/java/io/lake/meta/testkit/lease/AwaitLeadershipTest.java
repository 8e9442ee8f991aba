package io.lake.meta.testkit.lease;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.InvalidArgumentException;
import io.lake.meta.MetaKey;
import io.lake.meta.lease.LeaderElection;
import io.lake.meta.testkit.InMemoryMetaStore;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link LeaderElection#awaitLeadership(Duration)}, proven by ordering: the waiter is seen parked
 * before the lease is won or the election closed; nothing sleeps.
 */
class AwaitLeadershipTest {

    private static final Duration LONG = Duration.ofMinutes(5);

    private final InMemoryMetaStore store = InMemoryMetaStore.create();
    private final ManualTicker ticker = new ManualTicker();
    private final LeaderElection election = LeaderElection.builder()
            .store(store)
            .leaseKey(MetaKey.of("lease/catalog"))
            .candidateId("node-a")
            .leaseDuration(Duration.ofSeconds(10))
            .clock(new ManualClock(1_000_000))
            .ticker(ticker)
            .build();

    @AfterEach
    void close() {
        election.close();
        store.close();
    }

    /** Starts {@code awaitLeadership(LONG)} on its own thread and returns once that thread waits. */
    private CompletableFuture<Boolean> parkedWaiter() throws InterruptedException {
        CompletableFuture<Boolean> answer = new CompletableFuture<>();
        Thread t = new Thread(
                () -> {
                    try {
                        answer.complete(election.awaitLeadership(LONG));
                    } catch (Throwable e) {
                        answer.completeExceptionally(e);
                    }
                },
                "awaiting-leadership");
        t.setDaemon(true);
        t.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (t.getState() != Thread.State.TIMED_WAITING && !answer.isDone()) {
            assertThat(System.nanoTime()).as("the waiter never parked").isLessThan(deadline);
            Thread.onSpinWait();
        }
        return answer;
    }

    @Test
    void awaitLeadership_returnsTrue_asSoonAsARoundOnAnotherThreadWinsTheLease() throws Exception {
        CompletableFuture<Boolean> answer = parkedWaiter();
        assertThat(answer).isNotDone();

        election.campaignOnce();

        assertThat(answer.get(30, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void awaitLeadership_alreadyLeader_returnsTrueAtOnce_andAZeroTimeoutOnlyChecks() throws Exception {
        assertThat(election.awaitLeadership(Duration.ZERO)).isFalse();
        election.campaignOnce();
        assertThat(election.awaitLeadership(Duration.ZERO)).isTrue();
        assertThat(election.awaitLeadership(LONG)).isTrue();
    }

    @Test
    void awaitLeadership_afterTheGuardsDeadline_waitsAgain() throws Exception {
        election.campaignOnce();
        ticker.advance(Duration.ofSeconds(11));
        assertThat(election.awaitLeadership(Duration.ZERO))
                .as("the guard's local deadline passed")
                .isFalse();
    }

    @Test
    void close_wakesAWaiter_withFalse() throws Exception {
        CompletableFuture<Boolean> answer = parkedWaiter();

        election.close();

        assertThat(answer.get(30, TimeUnit.SECONDS)).isFalse();
        assertThat(election.awaitLeadership(LONG)).as("closed: answers at once").isFalse();
    }

    @Test
    void interrupt_endsTheWait_withInterruptedException() throws Exception {
        CompletableFuture<Boolean> answer = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                answer.complete(election.awaitLeadership(LONG));
            } catch (Throwable e) {
                answer.completeExceptionally(e);
            }
        });
        t.setDaemon(true);
        t.start();
        t.interrupt();

        assertThatThrownBy(() -> answer.get(30, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(InterruptedException.class);
    }

    @Test
    void badTimeouts_areInvalidArguments() {
        assertThatThrownBy(() -> election.awaitLeadership(null))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("timeout");
        assertThatThrownBy(() -> election.awaitLeadership(Duration.ofMillis(-1)))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("timeout");
    }
}
