package io.lake.meta.testkit.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.FencedException;
import io.lake.meta.InvalidArgumentException;
import io.lake.meta.lease.LeaderElection;
import io.lake.meta.ops.BeginResult;
import io.lake.meta.ops.JournalWriteResult;
import io.lake.meta.ops.OperationJournal;
import io.lake.meta.ops.OperationOwner;
import io.lake.meta.ops.OperationRecord;
import io.lake.meta.ops.OperationState;
import io.lake.meta.testkit.ContractGroup;
import io.lake.meta.testkit.PausePoints;
import io.lake.meta.testkit.lease.InFlightHooks;
import io.lake.meta.testkit.lease.ManualTicker;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** Part of {@link OperationJournalSuite}: recovery. */
@ContractGroup("recovery")
abstract class JournalRecoveryContract extends JournalRacesContract {

    @Test
    void aLaterLeaderRecoversAnOperationWhoseCallerDiedBetweenBeginAndComplete() {
        LeaderElection a = leader("node-a", new ManualTicker());
        OperationRecord orphan = journal(store, a).begin(TENANT, "op-1", DIGEST).record();
        // node-a dies here: it never completes and never renews
        LeaderElection b = takeOver("node-b");
        OperationJournal journalOfB = journal(store, b);

        List<OperationRecord> orphans = allRecords(journalOfB, OperationJournal.inTenant(TENANT, 10)).stream()
                .filter(r -> r.state() == OperationState.IN_PROGRESS)
                .filter(r -> r.owner().epoch() < b.currentGuard().orElseThrow().epoch())
                .toList();
        assertThat(orphans).containsExactly(orphan);
        JournalWriteResult recovered = journalOfB.recover(orphans.get(0));
        OperationRecord mine = recovered.record().orElseThrow();
        JournalWriteResult completed = journalOfB.complete(mine, "finished-by-b");

        assertThat(recovered.isApplied()).isTrue();
        assertThat(mine.owner()).isEqualTo(new OperationOwner("node-b", 2));
        assertThat(mine.attempt()).isEqualTo(2);
        assertThat(mine.state()).isEqualTo(OperationState.IN_PROGRESS);
        assertThat(completed.isApplied()).isTrue();
        BeginResult replay = journalOfB.begin(TENANT, "op-1", DIGEST);
        assertThat(replay.kind()).isEqualTo(BeginResult.Kind.COMPLETED);
        assertThat(replay.record().outcome()).contains("finished-by-b");
    }

    @Test
    void aPausedLeaderResumingAfterATakeoverRecoveredItsOperation_isRefused_andTheRecoveredOutcomeStands()
            throws Exception {
        ManualTicker tickerA = new ManualTicker();
        LeaderElection a = leader("node-a", tickerA);
        PausePoints points = new PausePoints();
        OperationJournal journalOfA = journal(new InFlightHooks(store, points), a);
        OperationRecord begun = journalOfA.begin(TENANT, "op-1", DIGEST).record();
        PausePoints.Pause pause = points.arm(InFlightHooks.BEFORE_GUARDED_WRITE);
        Future<JournalWriteResult> staleComplete = inBackground(() -> journalOfA.complete(begun, "from-a"));
        pause.awaitArrival(); // node-a chose its guard and pauses with the complete in flight

        tickerA.advance(LEASE.plus(RENEW));
        LeaderElection b = takeOver("node-b");
        OperationJournal journalOfB = journal(store, b);
        OperationRecord recovered = journalOfB
                .recover(journalOfB.get(TENANT, "op-1").orElseThrow())
                .record()
                .orElseThrow();
        OperationRecord outcomeOfB =
                journalOfB.complete(recovered, "from-b").record().orElseThrow();
        pause.release();

        assertThatThrownBy(staleComplete::get)
                .isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(FencedException.class);
        assertThat(journalOfB.get(TENANT, "op-1")).contains(outcomeOfB);
        assertThat(outcomeOfB.outcome()).contains("from-b");
        assertThat(outcomeOfB.owner()).isEqualTo(new OperationOwner("node-b", 2));
    }

    @Test
    void evenUnfenced_anOldLeadersEnd_conflictsOnTheExactBytesTheRecoveryReplaced() {
        LeaderElection a = leader("node-a", new ManualTicker()); // a's ticker never moves: it still believes it leads
        OperationRecord begun = journal(store, a).begin(TENANT, "op-1", DIGEST).record();
        LeaderElection b = takeOver("node-b");
        OperationRecord recovered = journal(store, b).recover(begun).record().orElseThrow();
        OperationJournal unfencedJournalOfA =
                OperationJournal.builder().store(store).authority(a).clock(wall).build();

        JournalWriteResult stale = unfencedJournalOfA.complete(begun, "from-a");

        assertThat(stale.isConflict()).isTrue();
        assertThat(stale.record()).contains(recovered);
        assertThat(journal(store, b).get(TENANT, "op-1")).contains(recovered);
    }

    @Test
    void recoveringThisTermsOwnOperation_isRefused_andWritesNothing() {
        LeaderElection a = leader("node-a", new ManualTicker());
        OperationJournal journal = journal(store, a);
        OperationRecord begun = journal.begin(TENANT, "op-1", DIGEST).record();

        assertThatThrownBy(() -> journal.recover(begun))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("epoch 1")
                .hasMessageContaining("only a later leader");
        assertThat(journal.get(TENANT, "op-1")).contains(begun);
    }

    @Test
    void endingAnEarlierTermsOperation_withoutRecoveringIt_isRefused() {
        LeaderElection a = leader("node-a", new ManualTicker());
        OperationRecord begun = journal(store, a).begin(TENANT, "op-1", DIGEST).record();
        LeaderElection b = takeOver("node-b");
        OperationJournal journalOfB = journal(store, b);

        assertThatThrownBy(() -> journalOfB.complete(begun, "x"))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("recover it first");
        assertThatThrownBy(() -> journalOfB.abandon(begun, "x")).isInstanceOf(InvalidArgumentException.class);
        assertThat(journalOfB.get(TENANT, "op-1")).contains(begun);
    }
}
