package io.lake.meta.testkit.lease;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.StoreUnavailableException;
import io.lake.meta.lease.LeaderElection;
import io.lake.meta.lease.LeadershipListener;
import io.lake.meta.lease.LeadershipStatus.Leader;
import io.lake.meta.lease.LeaseGuard;
import io.lake.meta.testkit.ContractGroup;
import io.lake.meta.testkit.FaultyStore;
import io.lake.meta.testkit.FaultyStore.Call;
import io.lake.meta.testkit.FaultyStore.Fault;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.Test;

/**
 * The lease, election and fenced-store suite, written once. A backend runs it with one line, on
 * its {@link io.lake.meta.testkit.BackendFactory}:
 *
 * <pre>{@code
 * @Backend(MyBackend.class)
 * class MyStoreLeaseFencingTest extends LeaseFencingSuite {}
 * }</pre>
 *
 * <p>One class per concept group, inherited along one chain so the backend's one class runs them
 * all and runners count every test on it: {@code LeaseEpochContract} (epochs),
 * {@code LeaseGuardContract} (guards), {@code LostLeaseAnswerContract} (lost answers),
 * {@code FencedWriteContract} (fenced writes), {@code PausedLeaderContract} (the paused leader),
 * {@code FencedMutationCoverageContract} (mutation coverage), {@code FencedTransactionContract}
 * (transactions and caller-guarded mutations through a fenced store) and the lifecycle tests
 * below; {@link io.lake.meta.testkit.ContractDisplayNames} names each {@code group > behaviour}.
 * Time is manual (a shared {@link ManualClock}, one {@link ManualTicker} per candidate) and races
 * are ordered with pause points, never sleeps.
 * @since 0.1.0
 */
@ContractGroup("lifecycle")
public abstract class LeaseFencingSuite extends FencedTransactionContract {

    /** For backends: {@code @Backend(MyBackend.class) class MyStoreLeaseFencingTest extends LeaseFencingSuite {}}. */
    protected LeaseFencingSuite() {}

    private static final Duration SAFETY_TIMEOUT = Duration.ofSeconds(30);

    @Test
    void start_campaignsOnAThreadItOwns_andCloseStopsThatThread() throws Exception {
        LeadershipEvents events = new LeadershipEvents();
        LeaderElection a = candidate("node-a", new ManualTicker(), store, b -> b.listener(events));
        assertThat(a.state()).isEqualTo(LeaderElection.State.LATENT);

        a.start();
        assertThat(a.state()).isEqualTo(LeaderElection.State.STARTED);
        events.awaitFirstGain(SAFETY_TIMEOUT);

        Thread roundThread = events.threads().get(0);
        assertThat(roundThread.getName()).isEqualTo("lake-meta-election-node-a");
        assertThat(roundThread.isDaemon()).isTrue();
        a.close();
        assertThat(a.state()).isEqualTo(LeaderElection.State.CLOSED);
        roundThread.join(SAFETY_TIMEOUT.toMillis());
        assertThat(roundThread.isAlive())
                .as("the owned scheduler was shut down")
                .isFalse();
        assertThat(leaseRecord().isVacant()).as("close resigned").isTrue();
    }

    @Test
    void close_withCallerSuppliedScheduler_leavesItRunning() throws Exception {
        ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
        try {
            LeadershipEvents events = new LeadershipEvents();
            LeaderElection a = candidate(
                    "node-a", new ManualTicker(), store, b -> b.listener(events).scheduler(scheduler));
            a.start();
            events.awaitFirstGain(SAFETY_TIMEOUT);

            a.close();

            assertThat(scheduler.isShutdown()).isFalse();
            assertThat(scheduler.submit(() -> 42).get()).isEqualTo(42);
            assertThat(leaseRecord().isVacant()).isTrue();
        } finally {
            scheduler.shutdownNow();
        }
    }

    @Test
    void start_twice_orAfterClose_isIllegalState() {
        LeaderElection a = candidate("node-a", new ManualTicker());
        a.start();

        assertThatThrownBy(a::start).isInstanceOf(IllegalStateException.class).hasMessageContaining("started");
        a.close();
        assertThatThrownBy(a::start).isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
        assertThatThrownBy(a::campaignOnce).isInstanceOf(IllegalStateException.class);
        assertThat(a.currentGuard()).isEmpty();
    }

    @Test
    void backgroundRoundFailure_isLogged_andTheNextRoundGoesOn() throws Exception {
        FaultyStore flaky = FaultyStore.over(store).failNext(Call.GET, 2, Fault.UNAVAILABLE);
        LeadershipEvents events = new LeadershipEvents();
        ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
        LeaderElection a = LeaderElection.builder()
                .store(flaky)
                .leaseKey(LEASE_KEY)
                .candidateId("node-a")
                .leaseDuration(LEASE)
                .renewInterval(Duration.ofMillis(1))
                .clock(wall)
                .ticker(new ManualTicker())
                .scheduler(scheduler)
                .listener(events)
                .build();
        try {
            a.start();
            events.awaitFirstGain(SAFETY_TIMEOUT);

            assertThat(flaky.injected()).as("both failures were injected").isEqualTo(2);
            assertThat(leaseRecord().holder()).contains("node-a");
        } finally {
            a.close();
            scheduler.shutdownNow();
        }
    }

    @Test
    void failingListener_doesNotStopTheElection() {
        LeadershipEvents events = new LeadershipEvents();
        LeaderElection a = candidate(
                "node-a",
                new ManualTicker(),
                store,
                b -> b.listener(new LeadershipListener() {
                    @Override
                    public void gained(LeaseGuard guard) {
                        throw new IllegalStateException("listener bug");
                    }

                    @Override
                    public void lost(long epoch, String reason) {
                        throw new IllegalStateException("listener bug");
                    }
                }));
        a.addListener(events);

        assertThat(a.campaignOnce()).isEqualTo(new Leader(1));
        assertThat(a.resign()).isTrue();
        assertThat(events.events()).containsExactly("gained 1", "lost 1");
    }

    @Test
    void storeFailureDuringRenewal_keepsTheGuardUntilItsDeadline() {
        ManualTicker ticker = new ManualTicker();
        FaultyStore flaky = FaultyStore.over(store);
        LeaderElection a = candidate("node-a", ticker, flaky, b -> b);
        a.campaignOnce();
        ticker.advance(RENEW);

        flaky.failNext(Call.GET, Fault.UNAVAILABLE);
        assertThatThrownBy(a::campaignOnce).isInstanceOf(StoreUnavailableException.class);

        assertThat(a.currentGuard()).isPresent();
        ticker.advance(LEASE.minus(RENEW));
        assertThat(a.currentGuard())
                .as("without a renewal the guard ends at its deadline")
                .isEmpty();
    }
}
