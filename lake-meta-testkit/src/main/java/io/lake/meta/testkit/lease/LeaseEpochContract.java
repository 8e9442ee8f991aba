package io.lake.meta.testkit.lease;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.MetaValue;
import io.lake.meta.lease.CorruptLeaseRecordException;
import io.lake.meta.lease.LeaderElection;
import io.lake.meta.lease.LeadershipStatus.Follower;
import io.lake.meta.lease.LeadershipStatus.Leader;
import io.lake.meta.lease.LeadershipStatus.Vacant;
import io.lake.meta.lease.LeaseEpochExhaustedException;
import io.lake.meta.lease.LeaseRecord;
import io.lake.meta.testkit.ContractGroup;
import org.junit.jupiter.api.Test;

/** Part of {@link LeaseFencingSuite}: lease records and their epochs: acquiring, renewing, taking over, resigning, failing closed. */
@ContractGroup("epochs")
abstract class LeaseEpochContract extends LeaseSupport {
    @Test
    void campaign_absentLease_acquiresEpochOne() {
        LeaderElection a = candidate("node-a", new ManualTicker());

        assertThat(a.campaignOnce()).isEqualTo(new Leader(1));

        LeaseRecord r = leaseRecord();
        assertThat(r.holder()).contains("node-a");
        assertThat(r.epoch()).isEqualTo(1);
        assertThat(r.expiresAtMillis()).isEqualTo(START_MILLIS + LEASE.toMillis());
        assertThat(a.status()).isEqualTo(new Leader(1));
        assertThat(candidate("node-b", new ManualTicker()).status()).isEqualTo(new Follower("node-a", 1));
    }

    @Test
    void campaign_expiredLegacyRecordWithoutEpoch_acquiresEpochOne() {
        seedLease("{\"holder\":\"old-node\",\"expiresAtMillis\":" + (START_MILLIS - 1) + "}");
        LeaderElection a = candidate("node-a", new ManualTicker());
        assertThat(a.status()).isEqualTo(new Vacant(0));

        assertThat(a.campaignOnce()).isEqualTo(new Leader(1));
        assertThat(leaseRecord().epoch()).isEqualTo(1);
    }

    @Test
    void campaign_liveLegacyRecord_followsItsHolderAtEpochZero() {
        String legacy = "{\"holder\":\"old-node\",\"expiresAtMillis\":" + (START_MILLIS + 5_000) + ",\"x\":1}";
        seedLease(legacy);

        assertThat(candidate("node-a", new ManualTicker()).campaignOnce()).isEqualTo(new Follower("old-node", 0));
        assertThat(leaseBytes()).isEqualTo(value(legacy));
    }

    @Test
    void renew_byHolder_keepsEpochAndExtendsExpiry() {
        ManualTicker ticker = new ManualTicker();
        LeaderElection a = candidate("node-a", ticker);
        a.campaignOnce();

        wall.advance(RENEW);
        ticker.advance(RENEW);
        assertThat(a.campaignOnce()).isEqualTo(new Leader(1));

        assertThat(leaseRecord().epoch()).isEqualTo(1);
        assertThat(leaseRecord().expiresAtMillis()).isEqualTo(START_MILLIS + RENEW.toMillis() + LEASE.toMillis());
    }

    @Test
    void campaign_liveLeaseOfAnother_followsAndWritesNothing() {
        candidate("node-a", new ManualTicker()).campaignOnce();
        MetaValue before = leaseBytes();
        wall.advance(LEASE.minusMillis(1));

        assertThat(candidate("node-b", new ManualTicker()).campaignOnce()).isEqualTo(new Follower("node-a", 1));
        assertThat(leaseBytes()).isEqualTo(before);
    }

    @Test
    void takeover_afterExpiry_incrementsEpoch_andOldHolderFollows() {
        ManualTicker tickerA = new ManualTicker();
        LeadershipEvents eventsA = new LeadershipEvents();
        LeaderElection a = candidate("node-a", tickerA, store, b -> b.listener(eventsA));
        LeaderElection b = candidate("node-b", new ManualTicker());
        a.campaignOnce();

        wall.advance(LEASE);
        tickerA.advance(LEASE);
        assertThat(b.campaignOnce()).isEqualTo(new Leader(2));

        assertThat(leaseRecord().holder()).contains("node-b");
        assertThat(leaseRecord().epoch()).isEqualTo(2);
        assertThat(a.campaignOnce()).isEqualTo(new Follower("node-b", 2));
        assertThat(a.currentGuard()).isEmpty();
        assertThat(eventsA.events()).containsExactly("gained 1", "lost 1");
    }

    @Test
    void campaign_ownRecordAfterLocalDeadline_startsNewTerm() {
        ManualTicker ticker = new ManualTicker();
        LeadershipEvents events = new LeadershipEvents();
        LeaderElection a = candidate("node-a", ticker, store, b -> b.listener(events));
        a.campaignOnce();

        ticker.advance(LEASE); // paused past its local deadline; wall clock (others' view) not yet expired
        assertThat(a.currentGuard()).isEmpty();
        assertThat(a.campaignOnce()).isEqualTo(new Leader(2));

        assertThat(events.events()).containsExactly("gained 1", "lost 1", "gained 2");
    }

    @Test
    void resign_keepsEpoch_soTheNextAcquisitionGoesPastIt() {
        LeadershipEvents events = new LeadershipEvents();
        LeaderElection a = candidate("node-a", new ManualTicker(), store, b -> b.listener(events));
        LeaderElection b = candidate("node-b", new ManualTicker());
        a.campaignOnce();

        assertThat(a.resign()).isTrue();

        LeaseRecord vacant = leaseRecord();
        assertThat(vacant.isVacant()).isTrue();
        assertThat(vacant.epoch()).isEqualTo(1);
        assertThat(a.currentGuard()).isEmpty();
        assertThat(events.events()).containsExactly("gained 1", "lost 1");
        assertThat(b.status()).isEqualTo(new Vacant(1));
        assertThat(b.campaignOnce()).isEqualTo(new Leader(2));
        assertThat(a.resign()).as("nothing of a's left to resign").isFalse();
        assertThat(leaseRecord().holder()).contains("node-b");
    }

    @Test
    void close_resignsKeepingEpoch_andLeavesTheStoreOpen() {
        LeaderElection a = candidate("node-a", new ManualTicker());
        a.campaignOnce();

        a.close();

        assertThat(leaseRecord().isVacant()).isTrue();
        assertThat(leaseRecord().epoch()).isEqualTo(1);
        assertThat(candidate("node-b", new ManualTicker()).campaignOnce()).isEqualTo(new Leader(2));
    }

    @Test
    void campaign_freeLeaseAtMaximumEpoch_failsClosedAndWritesNothing() {
        String exhausted =
                "{\"holder\":\"old\",\"epoch\":" + Long.MAX_VALUE + ",\"expiresAtMillis\":" + (START_MILLIS - 1) + "}";
        seedLease(exhausted);
        LeaderElection a = candidate("node-a", new ManualTicker());

        assertThatThrownBy(a::campaignOnce)
                .isInstanceOf(LeaseEpochExhaustedException.class)
                .hasMessageContaining("maximum epoch")
                .hasMessageContaining("nobody can acquire");
        assertThat(leaseBytes()).isEqualTo(value(exhausted));
        assertThat(a.currentGuard()).isEmpty();
        assertThat(new LeaseEpochExhaustedException(LEASE_KEY).retryable()).isFalse();
    }

    @Test
    void epochOneBelowMaximum_canBeAcquiredAndRenewed_butNotAcquiredAgainAfterResign() {
        seedLease("{\"holder\":\"old\",\"epoch\":" + (Long.MAX_VALUE - 1) + ",\"expiresAtMillis\":0}");
        ManualTicker ticker = new ManualTicker();
        LeaderElection a = candidate("node-a", ticker);

        assertThat(a.campaignOnce()).isEqualTo(new Leader(Long.MAX_VALUE));
        ticker.advance(RENEW);
        assertThat(a.campaignOnce()).as("renewal keeps the epoch").isEqualTo(new Leader(Long.MAX_VALUE));
        assertThat(a.resign()).isTrue();

        assertThatThrownBy(candidate("node-b", new ManualTicker())::campaignOnce)
                .isInstanceOf(LeaseEpochExhaustedException.class);
        assertThat(leaseRecord().isVacant()).isTrue();
        assertThat(leaseRecord().epoch()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void campaign_afterTheRecordWasDeleted_doesNotReuseAnEpochItHasSeen() {
        ManualTicker ticker = new ManualTicker();
        LeaderElection a = candidate("node-a", ticker);
        a.campaignOnce();
        ticker.advance(RENEW);
        a.campaignOnce();
        assertThat(store.delete(LEASE_KEY, leaseBytes()).isApplied()).isTrue(); // an operator's mistake

        assertThat(a.campaignOnce()).isEqualTo(new Leader(2));
    }

    @Test
    void takeover_afterTheRecordWasDeletedAndAFreshCandidatesShortTerm_goesPastEveryEpochItHasSeen() {
        LeadershipEvents eventsA = new LeadershipEvents();
        LeaderElection a = candidate("node-a", new ManualTicker(), store, b -> b.listener(eventsA));
        a.campaignOnce();
        a.resign();
        assertThat(a.campaignOnce()).isEqualTo(new Leader(2));
        assertThat(store.delete(LEASE_KEY, leaseBytes()).isApplied()).isTrue(); // an operator's mistake
        LeaderElection fresh = candidate("node-c", new ManualTicker());
        assertThat(fresh.campaignOnce())
                .as("a fresh candidate cannot know the old epochs")
                .isEqualTo(new Leader(1));
        assertThat(a.campaignOnce()).isEqualTo(new Follower("node-c", 1));

        wall.advance(LEASE); // node-c's short term ends without a renewal

        assertThat(a.campaignOnce())
                .as("a has seen epochs 1 and 2: its takeover goes past both")
                .isEqualTo(new Leader(3));
        assertThat(leaseRecord().epoch()).isEqualTo(3);
        assertThat(eventsA.events()).containsExactly("gained 1", "lost 1", "gained 2", "lost 2", "gained 3");
    }

    @Test
    void campaign_corruptRecord_failsClosedAndWritesNothing() {
        seedLease("{\"holder\":\"x\",\"epoch\":-4,\"expiresAtMillis\":0}");
        LeaderElection a = candidate("node-a", new ManualTicker());

        assertThatThrownBy(a::campaignOnce)
                .isInstanceOf(CorruptLeaseRecordException.class)
                .hasMessageContaining("epoch -4");
        assertThat(leaseBytes()).isEqualTo(value("{\"holder\":\"x\",\"epoch\":-4,\"expiresAtMillis\":0}"));
    }
}
