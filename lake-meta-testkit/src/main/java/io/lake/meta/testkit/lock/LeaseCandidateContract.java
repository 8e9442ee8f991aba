package io.lake.meta.testkit.lock;

import static org.assertj.core.api.Assertions.assertThat;

import io.lake.meta.MetaValue;
import io.lake.meta.lease.LeadershipStatus.Follower;
import io.lake.meta.lease.LeadershipStatus.Leader;
import io.lake.meta.lease.LeadershipStatus.Vacant;
import io.lake.meta.lease.LeaseCandidate;
import io.lake.meta.testkit.ContractGroup;
import io.lake.meta.testkit.lease.LeadershipEvents;
import io.lake.meta.testkit.lease.ManualTicker;
import org.junit.jupiter.api.Test;

/** Part of {@link FencedLockSuite}: candidate rounds. */
@ContractGroup("candidate rounds")
abstract class LeaseCandidateContract extends LockSupport {

    LeaseCandidate candidate(String id, ManualTicker ticker, LeadershipEvents events) {
        return LeaseCandidate.builder()
                .store(store)
                .leaseKey(LOCK_KEY)
                .candidateId(id)
                .leaseDuration(LEASE)
                .clock(wall)
                .ticker(ticker)
                .listener(events)
                .listenerExecutor(Runnable::run)
                .build();
    }

    @Test
    void renewOnce_onAFreeRecord_writesNothing() {
        LeaseCandidate a = candidate("node-a", new ManualTicker(), new LeadershipEvents());

        assertThat(a.renewOnce()).isEqualTo(new Vacant(0));
        assertThat(store.get(LOCK_KEY)).isEmpty();
        assertThat(a.currentGuard()).isEmpty();
    }

    @Test
    void renewOnce_renewsTheLiveTerm_inTheSameEpoch() {
        ManualTicker ticker = new ManualTicker();
        LeaseCandidate a = candidate("node-a", ticker, new LeadershipEvents());
        assertThat(a.campaignOnce()).isEqualTo(new Leader(1));
        MetaValue first = lockBytes(LOCK_KEY);
        ticker.advance(RENEW);
        wall.advance(RENEW);

        assertThat(a.renewOnce()).isEqualTo(new Leader(1));

        assertThat(lockBytes(LOCK_KEY)).isNotEqualTo(first);
        assertThat(lockRecord(LOCK_KEY).expiresAtMillis())
                .isEqualTo(START_MILLIS + RENEW.toMillis() + LEASE.toMillis());
        assertThat(a.currentGuard().orElseThrow().leaseBytes()).isEqualTo(lockBytes(LOCK_KEY));
    }

    /** Where the campaign round would start term 2 over its own record, the renewal-only round only follows. */
    @Test
    void renewOnce_afterTheTermEnded_neverStartsANewOne() {
        ManualTicker ticker = new ManualTicker();
        LeadershipEvents events = new LeadershipEvents();
        LeaseCandidate a = candidate("node-a", ticker, events);
        a.campaignOnce();
        MetaValue record = lockBytes(LOCK_KEY);
        ticker.advance(LEASE); // the local deadline ends term 1

        assertThat(a.renewOnce()).isEqualTo(new Follower("node-a", 1));

        assertThat(events.events()).containsExactly("gained 1", "lost 1");
        assertThat(lockBytes(LOCK_KEY)).isEqualTo(record);
        assertThat(a.currentGuard()).isEmpty();
        assertThat(a.campaignOnce()).as("the campaign round may start term 2").isEqualTo(new Leader(2));
    }

    @Test
    void renewOnce_afterATakeover_followsAndWritesNothing() {
        ManualTicker tickerA = new ManualTicker();
        LeadershipEvents events = new LeadershipEvents();
        LeaseCandidate a = candidate("node-a", tickerA, events);
        a.campaignOnce();
        wall.advance(LEASE);
        candidate("node-b", new ManualTicker(), new LeadershipEvents()).campaignOnce();
        MetaValue recordOfB = lockBytes(LOCK_KEY);

        assertThat(a.renewOnce()).isEqualTo(new Follower("node-b", 2));

        assertThat(events.events()).containsExactly("gained 1", "lost 1");
        assertThat(lockBytes(LOCK_KEY)).isEqualTo(recordOfB);
    }
}
