package io.lake.meta.testkit.ops;

import static org.assertj.core.api.Assertions.assertThat;

import io.lake.meta.lease.LeaderElection;
import io.lake.meta.ops.BeginResult;
import io.lake.meta.ops.JournalWriteResult;
import io.lake.meta.ops.OperationJournal;
import io.lake.meta.ops.OperationOwner;
import io.lake.meta.ops.OperationRecord;
import io.lake.meta.testkit.ContractGroup;
import io.lake.meta.testkit.PausePoints;
import io.lake.meta.testkit.lease.InFlightHooks;
import io.lake.meta.testkit.lease.ManualTicker;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** Part of {@link OperationJournalSuite}: races. */
@ContractGroup("races")
abstract class JournalRacesContract extends JournalBeginAndReplayContract {

    @Test
    void twoCallersRaceBeginAndComplete_bothObserveTheOneRecordedOutcome() throws Exception {
        LeaderElection a = leader("node-a", new ManualTicker());
        PausePoints points = new PausePoints();
        OperationJournal first = journal(new InFlightHooks(store, points), a);
        OperationJournal second = journal(store, a);
        OperationRecord begun = first.begin(TENANT, "op-1", DIGEST).record();
        PausePoints.Pause pause = points.arm(InFlightHooks.BEFORE_GUARDED_WRITE);
        Future<JournalWriteResult> completing = inBackground(() -> first.complete(begun, "outcome-1"));
        pause.awaitArrival(); // the first caller's complete is in flight

        BeginResult secondMeanwhile = second.begin(TENANT, "op-1", DIGEST);
        pause.release();
        JournalWriteResult firstResult = completing.get();
        BeginResult secondAfter = second.begin(TENANT, "op-1", DIGEST);

        assertThat(secondMeanwhile.kind()).isEqualTo(BeginResult.Kind.IN_PROGRESS);
        assertThat(secondMeanwhile.record().owner()).isEqualTo(new OperationOwner("node-a", 1));
        assertThat(firstResult.record().orElseThrow().outcome()).contains("outcome-1");
        assertThat(secondAfter.kind()).isEqualTo(BeginResult.Kind.COMPLETED);
        assertThat(secondAfter.record()).isEqualTo(firstResult.record().orElseThrow());
    }

    @Test
    void aBeginHeldInFlight_whileAnotherCallerBeginsAndCompletes_returnsThatOutcome() throws Exception {
        LeaderElection a = leader("node-a", new ManualTicker());
        PausePoints points = new PausePoints();
        OperationJournal late = journal(new InFlightHooks(store, points), a);
        OperationJournal early = journal(store, a);
        PausePoints.Pause pause = points.arm(InFlightHooks.BEFORE_GUARDED_WRITE);
        Future<BeginResult> lateBegin = inBackground(() -> late.begin(TENANT, "op-1", DIGEST));
        pause.awaitArrival(); // the late caller read "absent" and its create is in flight

        OperationRecord recorded = early.complete(
                        early.begin(TENANT, "op-1", DIGEST).record(), "outcome-early")
                .record()
                .orElseThrow();
        pause.release();

        BeginResult lateResult = lateBegin.get();
        assertThat(lateResult.kind()).isEqualTo(BeginResult.Kind.COMPLETED);
        assertThat(lateResult.record()).isEqualTo(recorded);
        assertThat(early.get(TENANT, "op-1")).contains(recorded);
    }

    @Test
    void twoCallersBothComplete_theOneHeldInFlightConflictsWithTheOtherOutcome() throws Exception {
        LeaderElection a = leader("node-a", new ManualTicker());
        PausePoints points = new PausePoints();
        OperationJournal first = journal(new InFlightHooks(store, points), a);
        OperationJournal second = journal(store, a);
        OperationRecord begun = first.begin(TENANT, "op-1", DIGEST).record();
        OperationRecord seenBySecond = second.begin(TENANT, "op-1", DIGEST).record();
        PausePoints.Pause pause = points.arm(InFlightHooks.BEFORE_GUARDED_WRITE);
        Future<JournalWriteResult> held = inBackground(() -> first.complete(begun, "outcome-1"));
        pause.awaitArrival();

        JournalWriteResult secondResult = second.complete(seenBySecond, "outcome-2");
        pause.release();
        JournalWriteResult firstResult = held.get();

        assertThat(secondResult.isApplied()).isTrue();
        assertThat(firstResult.isConflict()).isTrue();
        assertThat(firstResult.record()).isEqualTo(secondResult.record());
        assertThat(second.get(TENANT, "op-1").orElseThrow().outcome()).contains("outcome-2");
    }
}
