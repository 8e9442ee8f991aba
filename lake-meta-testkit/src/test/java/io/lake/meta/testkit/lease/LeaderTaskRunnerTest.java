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
    private final LeaderElection election = LeaderElection.builder()
            .store(store)
            .leaseKey(LEASE_KEY)
            .candidateId("node-a")
            .leaseDuration(Duration.ofSeconds(10))
            .clock(wall)
            .ticker(new ManualTicker())
            .listenerExecutor(Runnable::run)
            .build();

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

            assertThat(interrupted.await(SAFETY.toSeconds(), TimeUnit.SECONDS))
                    .as("interrupted on loss")
                    .isTrue();
            assertThat(epochs).containsExactly(1L);
        }
    }

    @Test
    void taskThatReturns_resignsSoAnotherCandidateMayLead() throws Exception {
        CountDownLatch resigned = new CountDownLatch(1);
        election.addListener(new io.lake.meta.lease.LeadershipListener() {
            @Override
            public void gained(io.lake.meta.lease.LeaseGuard guard) {}

            @Override
            public void lost(long epoch, String reason) {
                resigned.countDown();
            }
        });
        try (LeaderTaskRunner runner = LeaderTaskRunner.over(election, guard -> {})) {
            election.campaignOnce();

            assertThat(resigned.await(SAFETY.toSeconds(), TimeUnit.SECONDS)).isTrue();
            assertThat(LeaseRecord.decode(LEASE_KEY, store.get(LEASE_KEY).orElseThrow())
                            .isVacant())
                    .isTrue();
        }
    }

    /**
     * A task of term 1 returns while its node moves to term 2 (term 1 ended at its deadline, and
     * the next round started term 2). The runner's "resign if this term still leads" check and its
     * resignation are two steps: the term may change between them, and term 1's task then resigns
     * term 2, whose own task never runs. The ticker's hook runs the term change exactly
     * in that window: after the check took its ticker reading (term 1 still valid at it) and
     * before it used it, as a thread preempted there would.
     */
    @Test
    void taskOfAnEndedTerm_thatReturns_doesNotResignTheNextTerm() throws Exception {
        HookedTicker ticker = new HookedTicker();
        LeaderElection a = LeaderElection.builder()
                .store(store)
                .leaseKey(MetaKey.of("lease/runner-race"))
                .candidateId("node-a")
                .leaseDuration(Duration.ofSeconds(10))
                .clock(wall)
                .ticker(ticker)
                .listenerExecutor(Runnable::run)
                .build();
        LeadershipEvents events = new LeadershipEvents();
        CountDownLatch lostOne = new CountDownLatch(1);
        CountDownLatch settled = new CountDownLatch(1);
        a.addListener(events);
        a.addListener(new io.lake.meta.lease.LeadershipListener() {
            @Override
            public void gained(io.lake.meta.lease.LeaseGuard guard) {}

            @Override
            public void lost(long epoch, String reason) {
                (epoch == 1 ? lostOne : settled).countDown(); // lost 2: term 2 resigned
            }
        });
        Runnable termChange = () -> {
            ticker.advance(Duration.ofSeconds(10)); // term 1's deadline passes...
            a.campaignOnce(); // ...and the next round ends it and starts term 2 (lost 1, gained 2)
        };
        try (LeaderTaskRunner runner = LeaderTaskRunner.over(a, guard -> {
            if (guard.epoch() == 1) {
                // returns; the term changes (on another thread, as the next round would) at the
                // runner's first ticker reading taken outside the election's round lock
                ticker.onNextUnlockedReadOn(
                        Thread.currentThread(),
                        () -> java.util.concurrent.CompletableFuture.runAsync(termChange)
                                .join());
                return;
            }
            settled.countDown(); // term 2's task runs
            new CountDownLatch(1).await();
        })) {
            a.campaignOnce();
            assertThat(lostOne.await(SAFETY.toSeconds(), TimeUnit.SECONDS)).isTrue();
            if (!ticker.fired()) { // no window between check and resignation: term 1 resigned, term 2 now
                termChange.run();
            }

            assertThat(settled.await(SAFETY.toSeconds(), TimeUnit.SECONDS))
                    .as("heard %s", events.events())
                    .isTrue();
            assertThat(events.events())
                    .as("term 1's task must not resign term 2")
                    .containsExactly("gained 1", "lost 1", "gained 2");
            assertThat(a.currentGuard())
                    .hasValueSatisfying(g -> assertThat(g.epoch()).isEqualTo(2L));
        } finally {
            a.close();
        }
    }

    /**
     * A {@link ManualTicker} that runs a hook once, on the next reading a given thread takes
     * outside the election's round lock (where another thread's round may interleave).
     */
    private static final class HookedTicker implements io.lake.meta.Ticker {
        private final ManualTicker ticker = new ManualTicker();
        private volatile Thread hookThread;
        private volatile Runnable hook;

        private volatile boolean fired;

        void onNextUnlockedReadOn(Thread thread, Runnable action) {
            hook = action;
            hookThread = thread;
        }

        boolean fired() {
            return fired;
        }

        void advance(Duration d) {
            ticker.advance(d);
        }

        /** With a hook: takes the reading, runs the hook (the reader preempted), returns the reading. */
        @Override
        public long read() {
            long now = ticker.read();
            if (hookThread == Thread.currentThread() && !underRoundLock()) {
                fired = true;
                Runnable action = hook;
                hookThread = null;
                hook = null;
                action.run();
            }
            return now;
        }

        private static boolean underRoundLock() {
            return StackWalker.getInstance()
                    .walk(frames -> frames.anyMatch(f -> f.getClassName().equals("io.lake.meta.lease.CampaignDriver")
                            && f.getMethodName().equals("run")));
        }
    }
}
