package io.lake.meta.testkit.lease;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.lake.meta.Entry;
import io.lake.meta.FencedException;
import io.lake.meta.GuardedMutation;
import io.lake.meta.InvalidArgumentException;
import io.lake.meta.KeyPrefix;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaValue;
import io.lake.meta.Page;
import io.lake.meta.PageRequest;
import io.lake.meta.StoreClosedException;
import io.lake.meta.WriteResult;
import io.lake.meta.fenced.FencedMetaStore;
import io.lake.meta.lease.LeaderElection;
import io.lake.meta.lease.LeadershipStatus.Leader;
import io.lake.meta.lease.LeaseGuard;
import io.lake.meta.testkit.ContractGroup;
import io.lake.meta.testkit.FaultyStore;
import io.lake.meta.testkit.FaultyStore.Call;
import io.lake.meta.testkit.FaultyStore.Fault;
import io.lake.meta.testkit.PausePoints;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Part of {@link LeaseFencingSuite}: writes through the fenced store, and the races it closes. */
@ContractGroup("fenced writes")
abstract class FencedWriteContract extends LostLeaseAnswerContract {

    private static final MetaKey TARGET = MetaKey.of("tbl/ns1/orders");
    private static final MetaKey OTHER = MetaKey.of("tbl/ns1/customers");

    @Test
    void createUpdateDelete_withFreshGuard_apply() {
        LeaderElection a = candidate("node-a", new ManualTicker());
        a.campaignOnce();
        FencedMetaStore fenced = FencedMetaStore.over(store, a);

        assertThat(fenced.create(TARGET, value("v1"))).isEqualTo(WriteResult.applied());
        assertThat(fenced.update(TARGET, value("v1"), value("v2"))).isEqualTo(WriteResult.applied());
        assertThat(fenced.get(TARGET)).contains(value("v2"));
        assertThat(fenced.delete(TARGET, value("v2"))).isEqualTo(WriteResult.applied());
        assertThat(store.get(TARGET)).isEmpty();
    }

    @Test
    void targetPreconditionFailure_isAnOrdinaryConflict() {
        LeaderElection a = candidate("node-a", new ManualTicker());
        a.campaignOnce();
        FencedMetaStore fenced = FencedMetaStore.over(store, a);
        fenced.create(TARGET, value("v1"));

        assertThat(fenced.update(TARGET, value("other"), value("v2")))
                .isIn(conflictsAsDeclared(Optional.of(value("v1"))));
        assertThat(fenced.create(TARGET, value("v3")).isConflict()).isTrue();
        assertThat(a.currentGuard())
                .as("a conflict is not a loss of leadership")
                .isPresent();
    }

    @Test
    void reads_delegateUnchanged_evenWithoutAGuard() {
        store.create(TARGET, value("v1"));
        FencedMetaStore fenced = FencedMetaStore.over(store, candidate("node-a", new ManualTicker()));

        assertThat(fenced.get(TARGET)).contains(value("v1"));
        // loop on the token: a sharded backend may return empty pages before the entry
        List<Entry> entries = new ArrayList<>();
        Optional<PageRequest> request = Optional.of(PageRequest.first(KeyPrefix.of("tbl/"), 10));
        while (request.isPresent()) {
            Page page = fenced.page(request.get());
            entries.addAll(page.entries());
            request = request.get().next(page);
        }
        assertThat(entries).extracting(Entry::key).containsExactly(TARGET);
    }

    @Test
    void write_withoutEverLeading_isFenced_andNothingReachesTheStore() {
        CountingMetaStore counting = new CountingMetaStore(store);
        FencedMetaStore fenced = FencedMetaStore.over(counting, candidate("node-a", new ManualTicker()));

        assertThatThrownBy(() -> fenced.create(TARGET, value("v1")))
                .isInstanceOf(FencedException.class)
                .hasMessageContaining("no valid lease");
        assertThat(counting.guardedWrites()).isEmpty();
        assertThat(counting.plainWrites()).isEmpty();
        assertThat(store.get(TARGET)).isEmpty();
    }

    @Test
    void write_afterLocalDeadline_isFenced_evenThoughTheRecordIsStillOurs() {
        ManualTicker ticker = new ManualTicker();
        LeaderElection a = candidate("node-a", ticker);
        a.campaignOnce();
        CountingMetaStore counting = new CountingMetaStore(store);
        FencedMetaStore fenced = FencedMetaStore.over(counting, a);
        MetaValue lease = leaseBytes();

        ticker.advance(LEASE);

        assertThatThrownBy(() -> fenced.create(TARGET, value("v1"))).isInstanceOf(FencedException.class);
        assertThat(counting.guardedWrites()).isEmpty();
        assertThat(store.get(TARGET)).isEmpty();
        assertThat(leaseBytes()).isEqualTo(lease);
    }

    @Test
    void write_afterResign_isFenced() {
        LeaderElection a = candidate("node-a", new ManualTicker());
        a.campaignOnce();
        FencedMetaStore fenced = FencedMetaStore.over(store, a);
        a.resign();

        assertThatThrownBy(() -> fenced.create(TARGET, value("v1"))).isInstanceOf(FencedException.class);
        assertThat(store.get(TARGET)).isEmpty();
    }

    @Test
    void write_toTheLeaseKeyItself_isInvalid_withOrWithoutAGuard() {
        LeaderElection a = candidate("node-a", new ManualTicker());
        CountingMetaStore counting = new CountingMetaStore(store);
        FencedMetaStore fenced = FencedMetaStore.over(counting, a);

        assertThatThrownBy(() -> fenced.create(LEASE_KEY, value("x")))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("lease key");
        a.campaignOnce();
        MetaValue lease = leaseBytes();
        assertThatThrownBy(() -> fenced.update(LEASE_KEY, lease, value("x")))
                .isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> fenced.delete(LEASE_KEY, lease)).isInstanceOf(InvalidArgumentException.class);
        assertThat(counting.guardedWrites()).isEmpty();
        assertThat(counting.plainWrites()).isEmpty();
        assertThat(leaseBytes()).isEqualTo(lease);
    }

    @SuppressWarnings("NullAway") // hands null to non-null parameters on purpose: they must be refused
    @Test
    void nullMutation_isInvalid_andNothingIsSent() {
        LeaderElection a = candidate("node-a", new ManualTicker());
        a.campaignOnce();
        CountingMetaStore counting = new CountingMetaStore(store);

        assertThatThrownBy(() -> FencedMetaStore.over(counting, a).apply(null))
                .isInstanceOf(InvalidArgumentException.class);
        assertThat(counting.guardedWrites()).isEmpty();
    }

    @Test
    void oldLeadersWrite_afterTakeover_isRejectedByTheStore_andNothingMoves() {
        // a's ticker does not move: a still believes it leads (its clock ran slow, say), so only
        // the store's guard check stands between a and b's data.
        LeadershipEvents eventsA = new LeadershipEvents();
        LeaderElection a = candidate("node-a", new ManualTicker(), store, b -> b.listener(eventsA));
        LeaderElection b = candidate("node-b", new ManualTicker());
        a.campaignOnce();
        FencedMetaStore fencedA = FencedMetaStore.over(store, a);
        fencedA.create(TARGET, value("from-a-1"));
        wall.advance(LEASE);
        b.campaignOnce();
        MetaValue leaseOfB = leaseBytes();
        assertThat(a.currentGuard()).as("a's own view has not expired").isPresent();

        assertThatThrownBy(() -> fencedA.update(TARGET, value("from-a-1"), value("from-a-2")))
                .isInstanceOf(FencedException.class)
                .hasMessageContaining("epoch 1");

        assertThat(store.get(TARGET)).contains(value("from-a-1"));
        assertThat(leaseBytes()).isEqualTo(leaseOfB);
        assertThat(a.currentGuard()).as("the rejection ends a's leadership").isEmpty();
        assertThat(eventsA.events()).containsExactly("gained 1", "lost 1");
        assertThat(FencedMetaStore.over(store, b)
                        .update(TARGET, value("from-a-1"), value("from-b"))
                        .isApplied())
                .isTrue();
    }

    @Test
    void renewalBetweenTwoWrites_doesNotBreakTheSecond() {
        ManualTicker ticker = new ManualTicker();
        LeaderElection a = candidate("node-a", ticker);
        a.campaignOnce();
        FencedMetaStore fenced = FencedMetaStore.over(store, a);
        assertThat(fenced.create(TARGET, value("v1")).isApplied()).isTrue();

        ticker.advance(RENEW);
        wall.advance(RENEW);
        a.campaignOnce();

        assertThat(fenced.update(TARGET, value("v1"), value("v2")).isApplied()).isTrue();
        assertThat(store.get(TARGET)).contains(value("v2"));
    }

    @Test
    void renewalWhileAWriteIsInFlight_resendsTheWriteWithTheNewGuard() throws Exception {
        ManualTicker ticker = new ManualTicker();
        LeaderElection a = candidate("node-a", ticker);
        a.campaignOnce();
        PausePoints points = new PausePoints();
        CountingMetaStore counting = new CountingMetaStore(store);
        FencedMetaStore fenced = FencedMetaStore.over(new InFlightHooks(counting, points), a);
        try (PausedWrite write = PausedWrite.create(fenced, points, TARGET, value("v1"))) {
            LeaseGuard used = a.currentGuard().orElseThrow();
            ticker.advance(RENEW);
            a.campaignOnce(); // renewal: the record's bytes change under the in-flight write
            write.release();

            assertThat(write.get().isApplied()).isTrue();
            List<GuardedMutation> sent = counting.guardedWrites();
            assertThat(sent).hasSize(2);
            assertThat(sent.get(0).expectedGuard()).isEqualTo(used.leaseBytes());
            assertThat(sent.get(1).expectedGuard()).isEqualTo(leaseBytes());
            assertThat(a.currentGuard()).isPresent();
        }
    }

    @Test
    void writeAfterARenewalWhoseAnswerWasLost_adoptsTheRenewal_andApplies() {
        ManualTicker ticker = new ManualTicker();
        FaultyStore network = FaultyStore.over(store);
        LeadershipEvents events = new LeadershipEvents();
        LeaderElection a = candidate("node-a", ticker, network, b -> b.listener(events));
        a.campaignOnce();
        renewalWhoseAnswerIsLost(ticker, network, a);
        CountingMetaStore counting = new CountingMetaStore(store);

        assertThat(FencedMetaStore.over(counting, a).create(TARGET, value("v1")).isApplied())
                .isTrue();

        assertThat(counting.guardedWrites()).hasSize(2); // rejected with the old guard, applied with the adopted one
        assertThat(a.currentGuard().orElseThrow().leaseBytes()).isEqualTo(leaseBytes());
        assertThat(events.events()).containsExactly("gained 1");
    }

    @Test
    void writeInFlightFromAnEarlierTerm_isNotResentUnderTheNewTerm() throws Exception {
        ManualTicker ticker = new ManualTicker();
        LeaderElection a = candidate("node-a", ticker);
        a.campaignOnce();
        PausePoints points = new PausePoints();
        FencedMetaStore fenced = FencedMetaStore.over(new InFlightHooks(store, points), a);
        try (PausedWrite write = PausedWrite.create(fenced, points, TARGET, value("decided-in-epoch-1"))) {
            ticker.advance(LEASE); // term 1 ends locally ("lost" is heard) ...
            assertThat(a.campaignOnce().epoch()).isEqualTo(2); // ... and a leads again in a new term
            write.release();

            assertThatThrownBy(write::get).hasCauseInstanceOf(FencedException.class);
            assertThat(store.get(TARGET)).isEmpty();
            assertThat(a.currentGuard().orElseThrow().epoch())
                    .as("a stale guard's rejection does not end the new term")
                    .isEqualTo(2);
        }
    }

    /**
     * A renewal's answer is lost (it applied), then a's first guard reaches its deadline while
     * a write decided under it is in flight. The next round announces "lost 1"; whatever a does
     * next, the write from term 1 must not apply.
     */
    @Test
    void writeInFlightWhenTheTermEndsAfterALostRenewal_doesNotApplyAfterLost() throws Exception {
        ManualTicker ticker = new ManualTicker();
        FaultyStore network = FaultyStore.over(store);
        LeadershipEvents events = new LeadershipEvents();
        LeaderElection a = candidate("node-a", ticker, network, b -> b.listener(events));
        a.campaignOnce();
        PausePoints points = new PausePoints();
        FencedMetaStore fenced = FencedMetaStore.over(new InFlightHooks(store, points), a);
        try (PausedWrite write = PausedWrite.create(fenced, points, TARGET, value("decided-in-epoch-1"))) {
            renewalWhoseAnswerIsLost(ticker, network, a);
            ticker.advance(LEASE.minus(RENEW)); // term 1's guard reaches its deadline
            a.campaignOnce(); // "lost 1", then a leads again
            write.release();

            Throwable thrown = catchThrowable(write::get);
            assertThat(store.get(TARGET))
                    .as("a write decided in term 1 applied after \"lost 1\"")
                    .isEmpty();
            assertThat(thrown).hasCauseInstanceOf(FencedException.class);
            assertThat(events.events()).containsExactly("gained 1", "lost 1", "gained 2");
            assertThat(a.currentGuard().orElseThrow().epoch()).isEqualTo(2);
        }
    }

    /**
     * As above, but the term ends on a fenced rejection whose adoption read fails: "lost 1" is
     * heard there, and a second write from term 1, still in flight, must not apply after it.
     */
    @Test
    void writeInFlightWhenARejectionEndsTheTerm_doesNotApplyAfterLost() throws Exception {
        ManualTicker ticker = new ManualTicker();
        FaultyStore network = FaultyStore.over(store);
        LeadershipEvents events = new LeadershipEvents();
        LeaderElection a = candidate("node-a", ticker, network, b -> b.listener(events));
        a.campaignOnce();
        PausePoints points = new PausePoints();
        FencedMetaStore fenced = FencedMetaStore.over(new InFlightHooks(store, points), a);
        try (PausedWrite held = PausedWrite.create(fenced, points, TARGET, value("held-in-epoch-1"))) {
            renewalWhoseAnswerIsLost(ticker, network, a);
            network.failNext(
                    Call.GET, Fault.UNAVAILABLE); // the election cannot read the record to recognise its renewal
            assertThatThrownBy(() -> fenced.create(OTHER, value("sent-in-epoch-1")))
                    .isInstanceOf(FencedException.class);
            assertThat(events.events()).containsExactly("gained 1", "lost 1");
            a.campaignOnce(); // a leads again
            held.release();

            Throwable thrown = catchThrowable(held::get);
            assertThat(store.get(TARGET))
                    .as("a write decided in term 1 applied after \"lost 1\"")
                    .isEmpty();
            assertThat(thrown).hasCauseInstanceOf(FencedException.class);
            assertThat(store.get(OTHER)).isEmpty();
            assertThat(events.events()).containsExactly("gained 1", "lost 1", "gained 2");
        }
    }

    /**
     * The local deadline ends a term whoever notices first. Here no round runs: the rejection
     * of a write in flight past its guard's deadline notices it, so it announces "lost 1" and
     * does not adopt the lost renewal into the ended term.
     */
    @Test
    void writeRejectedAfterItsGuardsDeadline_endsTheTerm_insteadOfAdoptingALostRenewal() throws Exception {
        ManualTicker ticker = new ManualTicker();
        FaultyStore network = FaultyStore.over(store);
        LeadershipEvents events = new LeadershipEvents();
        LeaderElection a = candidate("node-a", ticker, network, b -> b.listener(events));
        a.campaignOnce();
        PausePoints points = new PausePoints();
        FencedMetaStore fenced = FencedMetaStore.over(new InFlightHooks(store, points), a);
        try (PausedWrite write = PausedWrite.create(fenced, points, TARGET, value("decided-in-epoch-1"))) {
            renewalWhoseAnswerIsLost(ticker, network, a);
            ticker.advance(LEASE.minus(RENEW)); // term 1's guard reaches its deadline; no round runs
            assertThat(a.currentGuard()).isEmpty();
            write.release();

            Throwable thrown = catchThrowable(write::get);
            assertThat(store.get(TARGET))
                    .as("a write decided in term 1 applied after its deadline")
                    .isEmpty();
            assertThat(thrown).hasCauseInstanceOf(FencedException.class);
            assertThat(events.events()).containsExactly("gained 1", "lost 1");
            assertThat(a.campaignOnce()).isEqualTo(new Leader(2));
        }
    }

    @Test
    void closingTheFencedStore_leavesTheDelegateAndTheElectionOpen() {
        LeaderElection a = candidate("node-a", new ManualTicker());
        a.campaignOnce();
        FencedMetaStore fenced = FencedMetaStore.over(store, a);

        fenced.close();
        fenced.close();

        assertThatThrownBy(() -> fenced.get(TARGET)).isInstanceOf(StoreClosedException.class);
        assertThatThrownBy(() -> fenced.create(TARGET, value("v1"))).isInstanceOf(StoreClosedException.class);
        assertThat(store.create(TARGET, value("raw")).isApplied()).isTrue();
        assertThat(a.currentGuard()).isPresent();
    }
}
