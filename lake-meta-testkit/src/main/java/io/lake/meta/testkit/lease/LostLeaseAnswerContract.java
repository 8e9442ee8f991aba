package io.lake.meta.testkit.lease;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.OutcomeUnknownException;
import io.lake.meta.lease.LeaderElection;
import io.lake.meta.lease.LeadershipStatus.Leader;
import io.lake.meta.lease.LeaseGuard;
import io.lake.meta.testkit.ContractGroup;
import io.lake.meta.testkit.FaultyStore;
import io.lake.meta.testkit.FaultyStore.Call;
import io.lake.meta.testkit.FaultyStore.Fault;
import org.junit.jupiter.api.Test;

/** Part of {@link LeaseFencingSuite}: campaign rounds whose answer was lost: adopted, retried, or a term ended. */
@ContractGroup("lost answers")
abstract class LostLeaseAnswerContract extends LeaseGuardContract {
    @Test
    void acquisitionWhoseAnswerWasLost_butApplied_isAdoptedByTheNextRound_withoutANewEpoch() {
        FaultyStore network = FaultyStore.over(store);
        LeadershipEvents events = new LeadershipEvents();
        LeaderElection a = candidate("node-a", new ManualTicker(), network, b -> b.listener(events));
        network.failNext(Call.WRITE, Fault.ANSWER_LOST);

        assertThatThrownBy(a::campaignOnce).isInstanceOf(OutcomeUnknownException.class);
        assertThat(a.currentGuard()).as("not leader until the outcome is known").isEmpty();
        assertThat(leaseRecord().holder()).contains("node-a");

        assertThat(a.campaignOnce()).isEqualTo(new Leader(1));
        assertThat(a.currentGuard().orElseThrow().leaseBytes()).isEqualTo(leaseBytes());
        assertThat(events.events()).containsExactly("gained 1");
    }

    @Test
    void acquisitionWhoseAnswerWasLost_andNotApplied_isRetriedByTheNextRound() {
        FaultyStore network = FaultyStore.over(store);
        LeaderElection a = candidate("node-a", new ManualTicker(), network, b -> b);
        network.failNext(Call.WRITE, Fault.NEVER_ARRIVED);

        assertThatThrownBy(a::campaignOnce).isInstanceOf(OutcomeUnknownException.class);
        assertThat(store.get(LEASE_KEY)).isEmpty();

        assertThat(a.campaignOnce()).isEqualTo(new Leader(1));
    }

    @Test
    void renewalWhoseAnswerWasLost_keepsTheOldGuardUntilResolved_andTheNextRoundRenewsFromTheNewBytes() {
        ManualTicker ticker = new ManualTicker();
        FaultyStore network = FaultyStore.over(store);
        LeadershipEvents events = new LeadershipEvents();
        LeaderElection a = candidate("node-a", ticker, network, b -> b.listener(events));
        a.campaignOnce();
        LeaseGuard before = a.currentGuard().orElseThrow();

        renewalWhoseAnswerIsLost(ticker, network, a);
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
        FaultyStore network = FaultyStore.over(store);
        LeadershipEvents events = new LeadershipEvents();
        LeaderElection a = candidate("node-a", ticker, network, b -> b.listener(events));
        a.campaignOnce();
        renewalWhoseAnswerIsLost(ticker, network, a);

        // the first guard's deadline passes; the lost renewal's own deadline (counted from its send) has not
        ticker.advance(LEASE.minus(RENEW));

        assertThat(a.campaignOnce())
                .as("listeners heard \"lost 1\": leading again is a new term")
                .isEqualTo(new Leader(2));
        assertThat(leaseRecord().epoch()).isEqualTo(2);
        assertThat(a.currentGuard().orElseThrow().epoch()).isEqualTo(2);
        assertThat(events.events()).containsExactly("gained 1", "lost 1", "gained 2");
    }

    @Test
    void renewalWhoseAnswerWasLost_whenAdoptionCannotReadTheRecord_theTermEnds_andTheNextRoundStartsANewOne() {
        ManualTicker ticker = new ManualTicker();
        FaultyStore network = FaultyStore.over(store);
        LeadershipEvents events = new LeadershipEvents();
        LeaderElection a = candidate("node-a", ticker, network, b -> b.listener(events));
        a.campaignOnce();
        renewalWhoseAnswerIsLost(ticker, network, a);
        LeaseGuard stale = a.currentGuard().orElseThrow();

        network.failNext(
                Call.GET, Fault.UNAVAILABLE); // the read that would recognise the lost renewal fails: fail closed
        a.guardRejected(stale); // as a fenced store does when the store refuses the old bytes

        assertThat(a.currentGuard()).isEmpty();
        assertThat(events.events()).containsExactly("gained 1", "lost 1");
        assertThat(a.campaignOnce())
                .as("the lost renewal applied, but term 1 was announced lost")
                .isEqualTo(new Leader(2));
        assertThat(leaseRecord().epoch()).isEqualTo(2);
        assertThat(events.events()).containsExactly("gained 1", "lost 1", "gained 2");
    }

    /**
     * A renewal round of {@code a}, once its renewal interval passed, whose write applies but
     * whose answer is lost: the round must end in {@link OutcomeUnknownException}.
     */
    static void renewalWhoseAnswerIsLost(ManualTicker ticker, FaultyStore network, LeaderElection a) {
        ticker.advance(RENEW);
        network.failNext(Call.WRITE, Fault.ANSWER_LOST);
        assertThatThrownBy(a::campaignOnce).isInstanceOf(OutcomeUnknownException.class);
    }
}
