package io.lake.meta.testkit.ops;

import static org.assertj.core.api.Assertions.assertThat;

import io.lake.meta.lease.LeaderElection;
import io.lake.meta.ops.BeginResult;
import io.lake.meta.ops.JournalWriteResult;
import io.lake.meta.ops.OperationJournal;
import io.lake.meta.ops.OperationOwner;
import io.lake.meta.ops.OperationRecord;
import io.lake.meta.testkit.ContractGroup;
import io.lake.meta.testkit.FaultyStore;
import io.lake.meta.testkit.FaultyStore.Call;
import io.lake.meta.testkit.FaultyStore.Fault;
import io.lake.meta.testkit.lease.ManualTicker;
import org.junit.jupiter.api.Test;

/** Issue 23 item 9: a lost answer is resolved by re-reading the record and recognising this write's attempt id. */
@ContractGroup("lost answers")
abstract class JournalLostAnswersContract extends JournalRecoveryContract {

    @Test
    void begin_whoseCreateAppliedButLostItsAnswer_isStarted_notStuckInProgress() {
        LeaderElection a = leader("node-a", new ManualTicker());
        FaultyStore network = FaultyStore.over(store);
        OperationJournal journal = journal(network, a);
        network.failNext(Call.WRITE, Fault.ANSWER_LOST);

        BeginResult begun = journal.begin(TENANT, "op-1", DIGEST);

        assertThat(begun.isStarted()).as("the caller recognises its own create").isTrue();
        assertThat(journal.complete(begun.record(), "done").isApplied()).isTrue();
    }

    @Test
    void begin_whoseCreateNeverArrived_isSentAgain_andStarted() {
        LeaderElection a = leader("node-a", new ManualTicker());
        FaultyStore network = FaultyStore.over(store);
        OperationJournal journal = journal(network, a);
        network.failNext(Call.WRITE, Fault.NEVER_ARRIVED);

        BeginResult begun = journal.begin(TENANT, "op-1", DIGEST);

        assertThat(begun.isStarted()).isTrue();
        assertThat(journal.get(TENANT, "op-1")).contains(begun.record());
    }

    @Test
    void complete_andAbandon_whoseAnswersWereLost_areApplied() {
        LeaderElection a = leader("node-a", new ManualTicker());
        FaultyStore network = FaultyStore.over(store);
        OperationJournal journal = journal(network, a);
        OperationRecord one = journal.begin(TENANT, "op-1", DIGEST).record();
        OperationRecord two = journal.begin(TENANT, "op-2", DIGEST).record();

        network.failNext(Call.WRITE, Fault.ANSWER_LOST);
        JournalWriteResult completed = journal.complete(one, "done");
        network.failNext(Call.WRITE, Fault.NEVER_ARRIVED);
        JournalWriteResult abandoned = journal.abandon(two, "declined");

        assertThat(completed.isApplied()).isTrue();
        assertThat(journal.get(TENANT, "op-1")).isEqualTo(completed.record());
        assertThat(abandoned.isApplied()).isTrue();
        assertThat(journal.get(TENANT, "op-2")).isEqualTo(abandoned.record());
    }

    @Test
    void recover_whoseAnswerWasLost_isApplied() {
        LeaderElection a = leader("node-a", new ManualTicker());
        OperationRecord orphan = journal(store, a).begin(TENANT, "op-1", DIGEST).record();
        LeaderElection b = takeOver("node-b");
        FaultyStore network = FaultyStore.over(store);
        OperationJournal journalOfB = journal(network, b);
        network.failNext(Call.WRITE, Fault.ANSWER_LOST);

        JournalWriteResult recovered = journalOfB.recover(orphan);

        assertThat(recovered.isApplied()).isTrue();
        assertThat(recovered.record().orElseThrow().owner()).isEqualTo(new OperationOwner("node-b", 2));
        assertThat(journalOfB.complete(recovered.record().orElseThrow(), "done").isApplied())
                .isTrue();
    }

    @Test
    void aLostAnswer_whoseWriteOthersOvertook_isTheOrdinaryConflict() {
        LeaderElection a = leader("node-a", new ManualTicker());
        OperationJournal direct = journal(store, a);
        OperationRecord begun = direct.begin(TENANT, "op-1", DIGEST).record();
        FaultyStore network = FaultyStore.over(store);
        OperationJournal journal = journal(network, a);
        JournalWriteResult abandonedFirst = direct.abandon(begun, "declined"); // another caller ended it
        network.failNext(Call.WRITE, Fault.NEVER_ARRIVED);

        JournalWriteResult completed = journal.complete(begun, "done");

        assertThat(completed.isConflict()).isTrue();
        assertThat(completed.record()).isEqualTo(abandonedFirst.record());
    }
}
