package io.lake.meta.testkit.lease;

import static org.assertj.core.api.Assertions.assertThat;

import io.lake.meta.MetaKey;
import io.lake.meta.lease.LeaderElection;
import io.lake.meta.lease.LeaderTaskRunner;
import io.lake.meta.lease.LeaseRecord;
import io.lake.meta.testkit.InMemoryMetaStore;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The run-while-leader helper: the task runs per term, is interrupted on loss, and its return resigns. */
class LeaderTaskRunnerTest {

    private static final Duration SAFETY = Duration.ofSeconds(10);
    private static final MetaKey LEASE_KEY = MetaKey.of("lease/worker");

    private final InMemoryMetaStore store = InMemoryMetaStore.create();
    private final ManualClock wall = new ManualClock(1_767_225_600_000L);
    private final LeaderElection election = LeaderElection.builder().store(store).leaseKey(LEASE_KEY)
            .candidateId("node-a").leaseDuration(Duration.ofSeconds(10)).clock(wall).ticker(new ManualTicker())
            .listenerExecutor(Runnable::run).build();

    @AfterEach
    void close() {
        election.close();
        store.close();
    }

    @Test
    void taskRunsWhileLeading_andIsInterruptedWhenTheTermEnds() throws Exception {
        CountDownLatch started = new CountDownLatch(1);
        CountDownLatch interrupted = new CountDownLatch(1);
        List<Long> epochs = new CopyOnWriteArrayList<>();
        try (LeaderTaskRunner runner = LeaderTaskRunner.over(election, guard -> {
            epochs.add(guard.epoch());
            started.countDown();
            try {
                new CountDownLatch(1).await(); // leader work until interrupted
            } catch (InterruptedException e) {
                interrupted.countDown();
                throw e;
            }
        })) {
            election.campaignOnce();
            assertThat(started.await(SAFETY.toSeconds(), TimeUnit.SECONDS)).isTrue();
            assertThat(runner.isRunning()).isTrue();

            election.resign(); // "lost 1"

            assertThat(interrupted.await(SAFETY.toSeconds(), TimeUnit.SECONDS)).as("interrupted on loss").isTrue();
            assertThat(epochs).containsExactly(1L);
        }
    }

    @Test
    void taskThatReturns_resignsSoAnotherCandidateMayLead() throws Exception {
        CountDownLatch resigned = new CountDownLatch(1);
        election.addListener(new io.lake.meta.lease.LeadershipListener() {
            @Override
            public void gained(io.lake.meta.lease.LeaseGuard guard) {
            }

            @Override
            public void lost(long epoch, String reason) {
                resigned.countDown();
            }
        });
        try (LeaderTaskRunner runner = LeaderTaskRunner.over(election, guard -> { })) {
            election.campaignOnce();

            assertThat(resigned.await(SAFETY.toSeconds(), TimeUnit.SECONDS)).isTrue();
            assertThat(LeaseRecord.decode(LEASE_KEY, store.get(LEASE_KEY).orElseThrow()).isVacant()).isTrue();
        }
    }
}
