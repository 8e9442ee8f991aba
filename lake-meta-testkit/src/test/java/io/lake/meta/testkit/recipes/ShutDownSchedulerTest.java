package io.lake.meta.testkit.recipes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.MetaKey;
import io.lake.meta.lease.LeaderElection;
import io.lake.meta.lock.FencedLock;
import io.lake.meta.testkit.InMemoryMetaStore;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A recipe started on a supplied scheduler that was already shut down runs no rounds: start()
 * must say so with a typed error and change nothing, not leave the recipe "started" with no
 * rounds behind it (a health check reading state() would see a live election that never renews).
 */
class ShutDownSchedulerTest {

    private final InMemoryMetaStore store = InMemoryMetaStore.create();
    private final ScheduledExecutorService shutDown = Executors.newSingleThreadScheduledExecutor();

    @AfterEach
    void close() {
        store.close();
    }

    @Test
    void election_startedOnAShutDownScheduler_failsAndStaysLatent() {
        shutDown.shutdown();
        LeaderElection election = LeaderElection.builder()
                .store(store)
                .leaseKey(MetaKey.of("lease/shut-down"))
                .candidateId("node-a")
                .leaseDuration(Duration.ofSeconds(9))
                .scheduler(shutDown)
                .build();

        assertThatThrownBy(election::start)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("shut down");

        assertThat(election.state()).isEqualTo(LeaderElection.State.LATENT);
        election.close();
    }

    @Test
    void lock_startedOnAShutDownScheduler_failsAndStaysLatent() {
        shutDown.shutdown();
        FencedLock lock = FencedLock.builder()
                .store(store)
                .key(MetaKey.of("lock/shut-down"))
                .holderId("node-a")
                .leaseDuration(Duration.ofSeconds(9))
                .scheduler(shutDown)
                .build();

        assertThatThrownBy(lock::start)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("shut down");

        assertThat(lock.state()).isEqualTo(FencedLock.State.LATENT);
        lock.close();
    }
}
