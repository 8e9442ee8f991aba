package io.lake.meta.testkit.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.InvalidArgumentException;
import io.lake.meta.MetaKey;
import io.lake.meta.lease.LeaderElection;
import io.lake.meta.metrics.LeaderElectionMetrics;
import io.lake.meta.testkit.InMemoryMetaStore;
import io.lake.meta.testkit.lease.ManualClock;
import io.lake.meta.testkit.lease.ManualTicker;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class LeaderElectionMetricsTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final ManualTicker ticker = new ManualTicker();

    private double gauge(String name) {
        return registry.get(name)
                .tags("lease", "lease/catalog", "candidate", "node-a")
                .gauge()
                .value();
    }

    private double transitions(String event) {
        return registry.get("lake.meta.leadership.transitions")
                .tags("candidate", "node-a", "event", event)
                .counter()
                .count();
    }

    @Test
    void leaderGauge_epochGauge_andTransitions_followTheElection() {
        try (InMemoryMetaStore store = InMemoryMetaStore.create();
                LeaderElection election = LeaderElection.builder()
                        .store(store)
                        .leaseKey(MetaKey.of("lease/catalog"))
                        .candidateId("node-a")
                        .leaseDuration(Duration.ofSeconds(10))
                        .clock(new ManualClock(1_000_000))
                        .ticker(ticker)
                        .listenerExecutor(Runnable::run)
                        .build()) { // transitions counted before each call returns
            new LeaderElectionMetrics(election).bindTo(registry);
            assertThat(gauge("lake.meta.leadership.leader")).isZero();
            assertThat(gauge("lake.meta.leadership.epoch")).isZero();

            election.campaignOnce();
            assertThat(gauge("lake.meta.leadership.leader")).isEqualTo(1);
            assertThat(gauge("lake.meta.leadership.epoch")).isEqualTo(1);
            assertThat(transitions("gained")).isEqualTo(1);

            ticker.advance(Duration.ofSeconds(11)); // the local deadline passes: no longer leader
            assertThat(gauge("lake.meta.leadership.leader")).isZero();
            assertThat(gauge("lake.meta.leadership.epoch"))
                    .as("the last term led")
                    .isEqualTo(1);

            election.campaignOnce(); // a new term
            election.resign();
            assertThat(gauge("lake.meta.leadership.epoch")).isEqualTo(2);
            assertThat(transitions("gained")).isEqualTo(2);
            assertThat(transitions("lost")).isGreaterThanOrEqualTo(1);
        }
    }

    @Test
    void nullsAreInvalidArguments() {
        assertThatThrownBy(() -> new LeaderElectionMetrics(null)).isInstanceOf(InvalidArgumentException.class);
    }
}
