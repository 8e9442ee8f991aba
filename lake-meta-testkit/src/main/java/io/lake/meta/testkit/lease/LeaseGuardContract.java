package io.lake.meta.testkit.lease;

import static org.assertj.core.api.Assertions.assertThat;

import io.lake.meta.MetaValue;
import io.lake.meta.lease.LeaderElection;
import io.lake.meta.lease.LeadershipStatus.Follower;
import io.lake.meta.lease.LeaseGuard;
import io.lake.meta.testkit.ContractGroup;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Part of {@link LeaseFencingSuite}: the guard a leader publishes: its bytes, its local deadline, its renewal. */
@ContractGroup("guards")
abstract class LeaseGuardContract extends LeaseEpochContract {
    @Test
    void guard_holdsTheExactInstalledBytesEpochAndDeadline() {
        ManualTicker ticker = new ManualTicker();
        LeaderElection a = candidate("node-a", ticker);
        long before = ticker.read();

        a.campaignOnce();

        LeaseGuard g = a.currentGuard().orElseThrow();
        assertThat(g.leaseBytes()).isEqualTo(leaseBytes());
        assertThat(g.leaseKey()).isEqualTo(LEASE_KEY);
        assertThat(g.epoch()).isEqualTo(1);
        assertThat(g.localDeadlineNanos()).isEqualTo(before + LEASE.toNanos());
    }

    @Test
    void localDeadline_countsFromBeforeTheRequestWasSent() {
        ManualTicker ticker = new ManualTicker();
        Duration slowWrite = Duration.ofSeconds(4);
        LeaderElection a = candidate("node-a", ticker, new SlowWrites(store, ticker, slowWrite), b -> b);
        long before = ticker.read();

        a.campaignOnce();

        assertThat(ticker.read()).isEqualTo(before + slowWrite.toNanos());
        assertThat(a.currentGuard().orElseThrow().localDeadlineNanos()).isEqualTo(before + LEASE.toNanos());
        ticker.advance(LEASE.minus(slowWrite));
        assertThat(a.currentGuard())
                .as("the slow request's time counts against the lease")
                .isEmpty();
    }

    @Test
    void safetyMargin_shortensTheLocalDeadline_notTheRecord() {
        ManualTicker ticker = new ManualTicker();
        Duration margin = Duration.ofSeconds(2);
        LeaderElection a = candidate("node-a", ticker, store, b -> b.safetyMargin(margin));
        long before = ticker.read();

        a.campaignOnce();

        assertThat(a.currentGuard().orElseThrow().localDeadlineNanos())
                .isEqualTo(before + LEASE.minus(margin).toNanos());
        assertThat(leaseRecord().expiresAtMillis()).isEqualTo(START_MILLIS + LEASE.toMillis());
    }

    @Test
    void guard_expiresAtItsLocalDeadline_failClosed() {
        ManualTicker ticker = new ManualTicker();
        LeaderElection a = candidate("node-a", ticker);
        a.campaignOnce();

        ticker.advance(LEASE.minusNanos(1));
        assertThat(a.currentGuard()).isPresent();
        assertThat(a.isLeader()).isTrue();
        ticker.advance(Duration.ofNanos(1));
        assertThat(a.currentGuard()).isEmpty();
        assertThat(a.isLeader()).isFalse();
        assertThat(a.status()).as("record still a's, but a no longer trusts it").isEqualTo(new Follower("node-a", 1));
    }

    @Test
    void renewal_replacesTheGuard() {
        ManualTicker ticker = new ManualTicker();
        LeaderElection a = candidate("node-a", ticker);
        a.campaignOnce();
        LeaseGuard first = a.currentGuard().orElseThrow();

        ticker.advance(RENEW);
        wall.advance(RENEW);
        a.campaignOnce();

        LeaseGuard second = a.currentGuard().orElseThrow();
        assertThat(second).isNotSameAs(first);
        assertThat(second.leaseBytes()).isNotEqualTo(first.leaseBytes()).isEqualTo(leaseBytes());
        assertThat(second.epoch()).isEqualTo(first.epoch());
        assertThat(second.localDeadlineNanos()).isEqualTo(first.localDeadlineNanos() + RENEW.toNanos());
        assertThat(first.leaseBytes()).as("the old guard is immutable").isNotEqualTo(leaseBytes());
    }

    @Test
    void renewal_withoutAnyTimePassing_stillInstallsUniqueBytes() {
        LeaderElection a = candidate("node-a", new ManualTicker());
        a.campaignOnce();
        MetaValue first = leaseBytes();

        a.campaignOnce();

        assertThat(leaseBytes())
                .isNotEqualTo(first)
                .isEqualTo(a.currentGuard().orElseThrow().leaseBytes());
    }

    @Test
    void takeover_givesTheNewLeaderANewGuard_andEmptiesTheOld() {
        ManualTicker tickerA = new ManualTicker();
        LeaderElection a = candidate("node-a", tickerA);
        LeaderElection b = candidate("node-b", new ManualTicker());
        a.campaignOnce();
        LeaseGuard guardA = a.currentGuard().orElseThrow();

        wall.advance(LEASE);
        tickerA.advance(LEASE);
        b.campaignOnce();

        LeaseGuard guardB = b.currentGuard().orElseThrow();
        assertThat(guardB.epoch()).isEqualTo(2);
        assertThat(guardB.leaseBytes()).isEqualTo(leaseBytes()).isNotEqualTo(guardA.leaseBytes());
        assertThat(a.currentGuard()).isEmpty();
    }
}
