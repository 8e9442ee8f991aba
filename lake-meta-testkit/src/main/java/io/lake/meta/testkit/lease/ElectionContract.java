package io.lake.meta.testkit.lease;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.MetaValue;
import io.lake.meta.OutcomeUnknownException;
import io.lake.meta.lease.CorruptLeaseRecordException;
import io.lake.meta.lease.LeaderElection;
import io.lake.meta.lease.LeaseEpochExhaustedException;
import io.lake.meta.lease.LeaseGuard;
import io.lake.meta.lease.LeaseRecord;
import io.lake.meta.lease.LeadershipStatus.Follower;
import io.lake.meta.lease.LeadershipStatus.Leader;
import io.lake.meta.lease.LeadershipStatus.Vacant;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** Part of {@link LeaseFencingContract}: lease records, epochs, status and guards. */
public abstract class ElectionContract extends LeaseSupport {

    @Nested
    class Epochs {

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
            String exhausted = "{\"holder\":\"old\",\"epoch\":" + Long.MAX_VALUE + ",\"expiresAtMillis\":"
                    + (START_MILLIS - 1) + "}";
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
            assertThat(fresh.campaignOnce()).as("a fresh candidate cannot know the old epochs").isEqualTo(new Leader(1));
            assertThat(a.campaignOnce()).isEqualTo(new Follower("node-c", 1));

            wall.advance(LEASE); // node-c's short term ends without a renewal

            assertThat(a.campaignOnce()).as("a has seen epochs 1 and 2: its takeover goes past both")
                    .isEqualTo(new Leader(3));
            assertThat(leaseRecord().epoch()).isEqualTo(3);
            assertThat(eventsA.events()).containsExactly("gained 1", "lost 1", "gained 2", "lost 2", "gained 3");
        }

        @Test
        void campaign_corruptRecord_failsClosedAndWritesNothing() {
            seedLease("{\"holder\":\"x\",\"epoch\":-4,\"expiresAtMillis\":0}");
            LeaderElection a = candidate("node-a", new ManualTicker());

            assertThatThrownBy(a::campaignOnce).isInstanceOf(CorruptLeaseRecordException.class)
                    .hasMessageContaining("epoch -4");
            assertThat(leaseBytes()).isEqualTo(value("{\"holder\":\"x\",\"epoch\":-4,\"expiresAtMillis\":0}"));
        }
    }

    @Nested
    class Guards {

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
            assertThat(a.currentGuard()).as("the slow request's time counts against the lease").isEmpty();
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

            assertThat(leaseBytes()).isNotEqualTo(first).isEqualTo(a.currentGuard().orElseThrow().leaseBytes());
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

    @Nested
    class LostAnswers {

        @Test
        void acquisitionWhoseAnswerWasLost_butApplied_isAdoptedByTheNextRound_withoutANewEpoch() {
            LosesAnswers network = new LosesAnswers(store);
            LeadershipEvents events = new LeadershipEvents();
            LeaderElection a = candidate("node-a", new ManualTicker(), network, b -> b.listener(events));
            network.next(LosesAnswers.Next.APPLY_THEN_LOSE_ANSWER);

            assertThatThrownBy(a::campaignOnce).isInstanceOf(OutcomeUnknownException.class);
            assertThat(a.currentGuard()).as("not leader until the outcome is known").isEmpty();
            assertThat(leaseRecord().holder()).contains("node-a");

            assertThat(a.campaignOnce()).isEqualTo(new Leader(1));
            assertThat(a.currentGuard().orElseThrow().leaseBytes()).isEqualTo(leaseBytes());
            assertThat(events.events()).containsExactly("gained 1");
        }

        @Test
        void acquisitionWhoseAnswerWasLost_andNotApplied_isRetriedByTheNextRound() {
            LosesAnswers network = new LosesAnswers(store);
            LeaderElection a = candidate("node-a", new ManualTicker(), network, b -> b);
            network.next(LosesAnswers.Next.DROP_AND_LOSE_ANSWER);

            assertThatThrownBy(a::campaignOnce).isInstanceOf(OutcomeUnknownException.class);
            assertThat(store.get(LEASE_KEY)).isEmpty();

            assertThat(a.campaignOnce()).isEqualTo(new Leader(1));
        }

        @Test
        void renewalWhoseAnswerWasLost_keepsTheOldGuardUntilResolved_andTheNextRoundRenewsFromTheNewBytes() {
            ManualTicker ticker = new ManualTicker();
            LosesAnswers network = new LosesAnswers(store);
            LeadershipEvents events = new LeadershipEvents();
            LeaderElection a = candidate("node-a", ticker, network, b -> b.listener(events));
            a.campaignOnce();
            LeaseGuard before = a.currentGuard().orElseThrow();
            ticker.advance(RENEW);
            network.next(LosesAnswers.Next.APPLY_THEN_LOSE_ANSWER);

            assertThatThrownBy(a::campaignOnce).isInstanceOf(OutcomeUnknownException.class);
            assertThat(a.currentGuard()).contains(before);
            assertThat(leaseBytes()).isNotEqualTo(before.leaseBytes());

            ticker.advance(RENEW);
            assertThat(a.campaignOnce()).isEqualTo(new Leader(1));
            assertThat(a.currentGuard().orElseThrow().leaseBytes()).isEqualTo(leaseBytes());
            assertThat(events.events()).containsExactly("gained 1");
        }

        @Test
        void renewalWhoseAnswerWasLost_thenTheLocalDeadlinePassed_leadsAgainOnlyInANewTerm() {
            ManualTicker ticker = new ManualTicker();
            LosesAnswers network = new LosesAnswers(store);
            LeadershipEvents events = new LeadershipEvents();
            LeaderElection a = candidate("node-a", ticker, network, b -> b.listener(events));
            a.campaignOnce();
            ticker.advance(RENEW);
            network.next(LosesAnswers.Next.APPLY_THEN_LOSE_ANSWER);
            assertThatThrownBy(a::campaignOnce).isInstanceOf(OutcomeUnknownException.class);

            // the first guard's deadline passes; the lost renewal's own deadline (counted from its send) has not
            ticker.advance(LEASE.minus(RENEW));

            assertThat(a.campaignOnce()).as("listeners heard \"lost 1\": leading again is a new term")
                    .isEqualTo(new Leader(2));
            assertThat(leaseRecord().epoch()).isEqualTo(2);
            assertThat(a.currentGuard().orElseThrow().epoch()).isEqualTo(2);
            assertThat(events.events()).containsExactly("gained 1", "lost 1", "gained 2");
        }

        @Test
        void renewalWhoseAnswerWasLost_whenAdoptionCannotReadTheRecord_theTermEnds_andTheNextRoundStartsANewOne() {
            ManualTicker ticker = new ManualTicker();
            AtomicInteger readFailures = new AtomicInteger(0);
            LosesAnswers network = new LosesAnswers(store);
            LeadershipEvents events = new LeadershipEvents();
            LeaderElection a = candidate("node-a", ticker, new FailingReads(network, readFailures),
                    b -> b.listener(events));
            a.campaignOnce();
            ticker.advance(RENEW);
            network.next(LosesAnswers.Next.APPLY_THEN_LOSE_ANSWER);
            assertThatThrownBy(a::campaignOnce).isInstanceOf(OutcomeUnknownException.class);
            LeaseGuard stale = a.currentGuard().orElseThrow();

            readFailures.set(1); // the read that would recognise the lost renewal fails: fail closed
            a.guardRejected(stale); // as a fenced store does when the store refuses the old bytes

            assertThat(a.currentGuard()).isEmpty();
            assertThat(events.events()).containsExactly("gained 1", "lost 1");
            assertThat(a.campaignOnce()).as("the lost renewal applied, but term 1 was announced lost")
                    .isEqualTo(new Leader(2));
            assertThat(leaseRecord().epoch()).isEqualTo(2);
            assertThat(events.events()).containsExactly("gained 1", "lost 1", "gained 2");
        }
    }
}
