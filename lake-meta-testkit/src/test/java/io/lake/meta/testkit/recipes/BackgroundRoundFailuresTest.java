package io.lake.meta.testkit.recipes;

import static org.assertj.core.api.Assertions.assertThat;

import io.lake.meta.MetaKey;
import io.lake.meta.lease.LeaderElection;
import io.lake.meta.lock.FencedLock;
import io.lake.meta.lock.LockHold;
import io.lake.meta.maintenance.MaintenanceAction;
import io.lake.meta.maintenance.MaintenanceLimits;
import io.lake.meta.maintenance.MaintenanceSweeper;
import io.lake.meta.maintenance.TableMaintainer;
import io.lake.meta.registry.TableRegistration;
import io.lake.meta.testkit.FaultyStore;
import io.lake.meta.testkit.FaultyStore.Call;
import io.lake.meta.testkit.FaultyStore.Fault;
import io.lake.meta.testkit.InMemoryMetaStore;
import io.lake.meta.testkit.lease.ManualClock;
import io.lake.meta.testkit.lease.ManualTicker;
import io.lake.meta.testkit.lock.ManualScheduler;
import java.io.IOException;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A recipe's background round (the election's campaign rounds, a lock's renewals, the sweeper's
 * ticks) runs as a periodic task, and a periodic task that throws is cancelled for good. A round
 * that fails with an {@link Error} (not a VirtualMachineError) or a checked exception (a store in
 * Kotlin, a sneaky throw) must be logged and retried like a RuntimeException: before, only
 * RuntimeException was caught, so the leader silently stopped renewing while it said "started".
 */
class BackgroundRoundFailuresTest {

    private static final Duration LEASE = Duration.ofSeconds(9);
    private static final Duration RENEW = Duration.ofSeconds(3);

    private final InMemoryMetaStore memory = InMemoryMetaStore.create();
    private final FaultyStore store = FaultyStore.over(memory);
    private final ManualClock wall = new ManualClock(1_767_225_600_000L);
    private final ManualTicker ticker = new ManualTicker();
    private final ManualScheduler scheduler = new ManualScheduler(ticker);

    @AfterEach
    void close() {
        memory.close();
    }

    private void advance(Duration d) {
        ticker.advance(d);
        wall.advance(d);
        scheduler.runDue();
    }

    @Test
    void electionRound_failingWithACheckedException_isRetried_andTheCandidateBecomesLeader() {
        LeaderElection election = LeaderElection.builder()
                .store(store)
                .leaseKey(MetaKey.of("lease/rounds"))
                .candidateId("node-a")
                .leaseDuration(LEASE)
                .renewInterval(RENEW)
                .clock(wall)
                .ticker(ticker)
                .scheduler(scheduler)
                .listenerExecutor(Runnable::run)
                .build();
        store.failNext(Call.ANY, Fault.thrown(new IOException("injected into the first round")));
        election.start();

        scheduler.runDue(); // round 1 fails
        assertThat(store.injected())
                .as("the first round hit the injected exception")
                .isEqualTo(1);
        advance(RENEW); // round 2

        assertThat(election.isLeader())
                .as("a later round ran and won the lease")
                .isTrue();
        election.close();
    }

    @Test
    void lockRenewal_failingWithAnError_isRetried_andTheHoldOutlivesItsFirstLease() {
        FencedLock lock = FencedLock.builder()
                .store(store)
                .key(MetaKey.of("lock/renewals"))
                .holderId("node-a")
                .leaseDuration(LEASE)
                .renewInterval(RENEW)
                .clock(wall)
                .ticker(ticker)
                .scheduler(scheduler)
                .listenerExecutor(Runnable::run)
                .build();
        lock.start();
        LockHold hold = lock.tryAcquire().orElseThrow();
        store.failNext(Call.ANY, Fault.thrown(new AssertionError("injected into the first renewal")));

        for (int i = 0; i < 4; i++) { // 12 s of renewals every 3 s, past the 9 s lease
            advance(RENEW);
        }

        assertThat(store.injected()).as("a renewal hit the injected error").isEqualTo(1);
        assertThat(hold.isHeld()).as("later renewals ran and kept the hold").isTrue();
        lock.close();
    }

    /** Not periodic, but the same catch: an Error left the acquisition open, and the lock object stuck. */
    @Test
    void acquisitionRound_failingWithAnError_answersTheCaller_andTheLockCanAcquireAgain() {
        FencedLock lock = FencedLock.builder()
                .store(store)
                .key(MetaKey.of("lock/acquire"))
                .holderId("node-a")
                .leaseDuration(LEASE)
                .renewInterval(RENEW)
                .clock(wall)
                .ticker(ticker)
                .scheduler(scheduler)
                .listenerExecutor(Runnable::run)
                .build();
        lock.start();
        store.failNext(Call.ANY, Fault.thrown(new AssertionError("injected into the acquisition round")));

        Throwable first = org.assertj.core.api.Assertions.catchThrowable(lock::tryAcquire);

        assertThat(first).as("the round's error reaches the caller").isInstanceOf(AssertionError.class);
        assertThat(lock.tryAcquire())
                .as("the next acquisition of the same lock object")
                .isPresent();
        lock.close();
    }

    @Test
    void scheduledAcquisitionRound_failingWithACheckedException_answersTheWaitingCaller() throws Exception {
        FencedLock other = FencedLock.builder()
                .store(memory)
                .key(MetaKey.of("lock/wait"))
                .holderId("node-b")
                .leaseDuration(LEASE)
                .renewInterval(RENEW)
                .clock(wall)
                .ticker(ticker)
                .scheduler(scheduler)
                .listenerExecutor(Runnable::run)
                .build();
        FencedLock lock = FencedLock.builder()
                .store(store)
                .key(MetaKey.of("lock/wait"))
                .holderId("node-a")
                .leaseDuration(LEASE)
                .renewInterval(RENEW)
                .retryInterval(Duration.ofSeconds(1))
                .clock(wall)
                .ticker(ticker)
                .scheduler(scheduler)
                .listenerExecutor(Runnable::run)
                .build();
        other.start();
        lock.start();
        assertThat(other.tryAcquire()).isPresent();
        java.util.concurrent.CompletableFuture<LockHold> waiting =
                java.util.concurrent.CompletableFuture.supplyAsync(() -> {
                    try {
                        return lock.acquire(Duration.ofSeconds(60));
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                });
        scheduler.awaitPendingOneShots(1); // its first round found the lock held and scheduled the next
        store.failNext(Call.ANY, Fault.thrown(new IOException("injected into a scheduled acquisition round")));

        ticker.advance(Duration.ofSeconds(1));
        wall.advance(Duration.ofSeconds(1));
        scheduler.runDue(); // the scheduled round throws

        Throwable answer = org.assertj.core.api.Assertions.catchThrowable(() ->
                waiting.get(30, java.util.concurrent.TimeUnit.SECONDS)); // a safety net: the answer is already given
        assertThat(answer)
                .as("the waiting caller was answered with the round's failure")
                .isInstanceOf(java.util.concurrent.ExecutionException.class)
                .cause()
                .hasRootCauseInstanceOf(IOException.class);
        lock.close();
        other.close();
    }

    @Test
    void sweeperTick_failingWithAnError_isRetried_atTheNextInterval() {
        Duration interval = Duration.ofSeconds(30);
        MaintenanceSweeper sweeper = MaintenanceSweeper.builder()
                .registryStore(store)
                .locks(table -> Optional.empty())
                .maintainer(new TableMaintainer() {
                    @Override
                    public MaintenanceAction maintain(TableRegistration table) {
                        return MaintenanceAction.none();
                    }

                    @Override
                    public void cleanUp(TableRegistration tombstone) {}
                })
                .limits(MaintenanceLimits.of(interval, 10))
                .clock(wall)
                .build();
        sweeper.scheduleOn(scheduler);
        store.failNext(Call.ANY, Fault.thrown(new AssertionError("injected into the first tick")));

        advance(interval); // tick 1 fails
        int pagesBefore = store.calls(Call.PAGE);
        advance(interval); // tick 2

        assertThat(store.injected()).as("the first tick hit the injected error").isEqualTo(1);
        assertThat(store.calls(Call.PAGE))
                .as("a later tick read the registry again")
                .isGreaterThan(pagesBefore);
    }
}
