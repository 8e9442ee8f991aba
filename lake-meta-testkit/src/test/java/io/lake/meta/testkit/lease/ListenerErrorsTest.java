package io.lake.meta.testkit.lease;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.lake.meta.MetaKey;
import io.lake.meta.lease.LeaderElection;
import io.lake.meta.lease.LeadershipListener;
import io.lake.meta.lease.LeaseGuard;
import io.lake.meta.testkit.InMemoryMetaStore;
import io.lake.meta.testkit.lock.ManualScheduler;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.Executor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A listener that throws an {@link Error} (an {@code assert}, a {@code NoClassDefFoundError}, a
 * {@code StackOverflowError} in user code) is one failing listener: it must not take the other
 * listeners' events with it, nor the election's background rounds (a periodic task that throws is
 * cancelled for good, so the leader would silently stop renewing while it says "started").
 */
class ListenerErrorsTest {

    private static final MetaKey LEASE_KEY = MetaKey.of("lease/listener-errors");
    private static final Duration LEASE = Duration.ofSeconds(9);
    private static final Duration RENEW = Duration.ofSeconds(3);

    private final InMemoryMetaStore store = InMemoryMetaStore.create();
    private final ManualClock wall = new ManualClock(1_767_225_600_000L);
    private final ManualTicker ticker = new ManualTicker();
    private final ManualScheduler scheduler = new ManualScheduler(ticker);

    @AfterEach
    void close() {
        store.close();
    }

    private LeaderElection.Builder election(Executor listenerExecutor) {
        return LeaderElection.builder()
                .store(store)
                .leaseKey(LEASE_KEY)
                .candidateId("node-a")
                .leaseDuration(LEASE)
                .renewInterval(RENEW)
                .clock(wall)
                .ticker(ticker)
                .scheduler(scheduler)
                .listenerExecutor(listenerExecutor);
    }

    @Test
    void listenerThrowingAnError_onADirectExecutor_doesNotStopTheBackgroundRounds() {
        LeaderElection a =
                election(Runnable::run).listener(new ThrowsOnGained()).build();
        LeadershipEvents events = new LeadershipEvents();
        a.addListener(events);
        a.start();

        scheduler.runDue(); // round 1: gained 1; the first listener throws an AssertionError
        for (int i = 0; i < 4; i++) { // 12 s of rounds every 3 s, past the 9 s lease
            ticker.advance(RENEW);
            wall.advance(RENEW);
            scheduler.runDue();
        }

        assertThat(events.events()).as("the other listener heard the gain").containsExactly("gained 1");
        assertThat(a.isLeader()).as("the rounds went on renewing the lease").isTrue();
        a.close();
    }

    @Test
    void listenerThrowingAnError_doesNotTakeTheOtherListenersEventsWithIt() {
        Queue<Runnable> deliveries = new ArrayDeque<>();
        LeaderElection a =
                election(deliveries::add).listener(new ThrowsOnGained()).build();
        LeadershipEvents events = new LeadershipEvents();
        a.addListener(events);

        a.campaignOnce(); // gained 1
        a.resign(); // lost 1
        Throwable escaped = null;
        while (!deliveries.isEmpty()) { // the executor's threads: an Error ends the delivery it escapes
            Throwable t = catchThrowable(deliveries.poll()::run);
            escaped = escaped != null ? escaped : t;
        }

        assertThat(events.events())
                .as("the other listener heard both events (escaped: %s)", escaped)
                .containsExactly("gained 1", "lost 1");
        a.close();
    }

    private static final class ThrowsOnGained implements LeadershipListener {
        @Override
        public void gained(LeaseGuard guard) {
            throw new AssertionError("a listener's own assertion failed");
        }

        @Override
        public void lost(long epoch, String reason) {}
    }
}
