package io.lake.meta.testkit.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.lake.meta.FencedException;
import io.lake.meta.InvalidArgumentException;
import io.lake.meta.MetaValue;
import io.lake.meta.lease.LeaderElection;
import io.lake.meta.ops.BeginResult;
import io.lake.meta.ops.CorruptOperationRecordException;
import io.lake.meta.ops.IdempotencyConflictException;
import io.lake.meta.ops.JournalWriteResult;
import io.lake.meta.ops.OperationJournal;
import io.lake.meta.ops.OperationOwner;
import io.lake.meta.ops.OperationRecord;
import io.lake.meta.ops.OperationState;
import io.lake.meta.testkit.ContractGroup;
import io.lake.meta.testkit.lease.CountingMetaStore;
import io.lake.meta.testkit.lease.ManualTicker;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** Part of {@link OperationJournalSuite}: begin and replay. */
@ContractGroup("begin and replay")
abstract class JournalBeginAndReplayContract extends JournalSupport {

    @Test
    void begin_recordsTheOperationInProgress_withItsLeaderAndEpoch() {
        LeaderElection a = leader("node-a", new ManualTicker());

        BeginResult begun = journal(store, a).begin(TENANT, "op-1", DIGEST);

        assertThat(begun.kind()).isEqualTo(BeginResult.Kind.STARTED);
        OperationRecord record = begun.record();
        assertThat(record.state()).isEqualTo(OperationState.IN_PROGRESS);
        assertThat(record.owner()).isEqualTo(new OperationOwner("node-a", 1));
        assertThat(record.attempt()).isEqualTo(1);
        assertThat(record.startedAt()).isEqualTo(Instant.ofEpochMilli(wall.millis()));
        assertThat(store.get(keyOf("op-1"))).contains(record.storedValue());
    }

    @Test
    void aReplayWhileInProgress_returnsInProgressWithItsOwner_andWritesNothing() {
        LeaderElection a = leader("node-a", new ManualTicker());
        OperationRecord begun = journal(store, a).begin(TENANT, "op-1", DIGEST).record();
        CountingMetaStore counting = new CountingMetaStore(store);

        BeginResult replay = journal(counting, a).begin(TENANT, "op-1", DIGEST);

        assertThat(replay.kind()).isEqualTo(BeginResult.Kind.IN_PROGRESS);
        assertThat(replay.record()).isEqualTo(begun);
        assertThat(replay.record().owner()).isEqualTo(new OperationOwner("node-a", 1));
        assertThat(counting.guardedWrites()).isEmpty();
        assertThat(counting.plainWrites()).isEmpty();
    }

    @Test
    void complete_thenAReplay_returnsTheRecordedOutcome_andWritesNothing() {
        LeaderElection a = leader("node-a", new ManualTicker());
        OperationJournal journal = journal(store, a);
        OperationRecord begun = journal.begin(TENANT, "op-1", DIGEST).record();

        JournalWriteResult completed = journal.complete(begun, "{\"order\":42}");
        CountingMetaStore counting = new CountingMetaStore(store);
        BeginResult replay = journal(counting, a).begin(TENANT, "op-1", DIGEST);

        assertThat(completed.isApplied()).isTrue();
        assertThat(replay.kind()).isEqualTo(BeginResult.Kind.COMPLETED);
        assertThat(replay.record().outcome()).contains("{\"order\":42}");
        assertThat(replay.record().endedAt()).contains(Instant.ofEpochMilli(wall.millis()));
        assertThat(counting.guardedWrites()).isEmpty();
    }

    @Test
    void abandon_thenAReplay_returnsAbandonedWithTheReason() {
        LeaderElection a = leader("node-a", new ManualTicker());
        OperationJournal journal = journal(store, a);
        OperationRecord begun = journal.begin(TENANT, "op-1", DIGEST).record();

        assertThat(journal.abandon(begun, "payment declined").isApplied()).isTrue();
        BeginResult replay = journal.begin(TENANT, "op-1", DIGEST);

        assertThat(replay.kind()).isEqualTo(BeginResult.Kind.ABANDONED);
        assertThat(replay.record().reason()).contains("payment declined");
        assertThat(replay.record().outcome()).isEmpty();
    }

    @Test
    void aReplayWithADifferentDigest_afterCompletion_isAnIdempotencyConflict_andWritesNothing() {
        LeaderElection a = leader("node-a", new ManualTicker());
        OperationJournal journal = journal(store, a);
        OperationRecord completed = journal.complete(
                        journal.begin(TENANT, "op-1", DIGEST).record(), "done")
                .record()
                .orElseThrow();
        CountingMetaStore counting = new CountingMetaStore(store);

        assertThatThrownBy(() -> journal(counting, a).begin(TENANT, "op-1", "sha256:ffff"))
                .isInstanceOf(IdempotencyConflictException.class)
                .hasMessageContaining("sha256:0b1c")
                .hasMessageContaining("sha256:ffff")
                .hasMessageContaining("nothing was written")
                .satisfies(e -> assertThat(((IdempotencyConflictException) e).recorded())
                        .isEqualTo(completed));
        assertThat(counting.guardedWrites()).isEmpty();
        assertThat(counting.plainWrites()).isEmpty();
        assertThat(store.get(keyOf("op-1"))).contains(completed.storedValue());
    }

    @Test
    void aDifferentDigestWhileInProgress_isAnIdempotencyConflict_too() {
        LeaderElection a = leader("node-a", new ManualTicker());
        OperationJournal journal = journal(store, a);
        journal.begin(TENANT, "op-1", DIGEST);

        assertThatThrownBy(() -> journal.begin(TENANT, "op-1", "sha256:ffff"))
                .isInstanceOf(IdempotencyConflictException.class);
    }

    @Test
    void onAFollower_aReplayIsAnswered_butANewOperationIsFenced_andNothingIsWritten() {
        LeaderElection a = leader("node-a", new ManualTicker());
        OperationJournal journalOfA = journal(store, a);
        journalOfA.complete(journalOfA.begin(TENANT, "op-1", DIGEST).record(), "done");
        LeaderElection follower = candidate("node-f", new ManualTicker());
        follower.campaignOnce();
        OperationJournal journalOfFollower = journal(store, follower);

        assertThat(journalOfFollower.begin(TENANT, "op-1", DIGEST).record().outcome())
                .contains("done");
        assertThatThrownBy(() -> journalOfFollower.begin(TENANT, "op-2", DIGEST))
                .isInstanceOf(FencedException.class);
        assertThat(store.get(keyOf("op-2"))).isEmpty();
    }

    @SuppressWarnings("NullAway") // hands null to non-null parameters on purpose: they must be refused
    @Test
    void invalidTenantsIdsAndDigests_areRejected_beforeAnyRead() {
        LeaderElection a = leader("node-a", new ManualTicker());
        CountingMetaStore counting = new CountingMetaStore(store);
        OperationJournal journal = journal(counting, a);

        assertThatThrownBy(() -> journal.begin("acme/eu", "op-1", DIGEST))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("tenant 'acme/eu'");
        assertThatThrownBy(() -> journal.begin(TENANT, "", DIGEST))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("operation id");
        assertThatThrownBy(() -> journal.begin(TENANT, "op 1", DIGEST)).isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> journal.begin(TENANT, "op-1", ""))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("payload digest");
        assertThatThrownBy(() -> journal.begin(TENANT, "op-1", null)).isInstanceOf(InvalidArgumentException.class);
        assertThat(counting.reads()).isZero();
        assertThat(contents("ops")).isEmpty();
    }

    @Test
    void completingWithAStaleInProgressRecord_conflictsWithTheRecordedOutcome() {
        LeaderElection a = leader("node-a", new ManualTicker());
        OperationJournal journal = journal(store, a);
        OperationRecord begun = journal.begin(TENANT, "op-1", DIGEST).record();
        OperationRecord completed = journal.complete(begun, "first").record().orElseThrow();

        JournalWriteResult again = journal.complete(begun, "second");

        assertThat(again.isConflict()).isTrue();
        assertThat(again.record()).contains(completed);
        assertThat(journal.get(TENANT, "op-1").orElseThrow().outcome()).contains("first");
    }

    @Test
    void unknownFields_surviveCompletion() throws Exception {
        LeaderElection a = leader("node-a", new ManualTicker());
        store.create(
                keyOf("op-1"),
                MetaValue.utf8(
                        "{\"v\":1,\"digest\":\"" + DIGEST + "\",\"state\":\"in_progress\","
                                + "\"holder\":\"node-a\",\"epoch\":1,\"attempt\":1,\"startedAtMillis\":5,\"traceId\":\"abc\"}"));
        OperationJournal journal = journal(store, a);

        journal.complete(journal.get(TENANT, "op-1").orElseThrow(), "done");

        JsonNode stored = JSON.readTree(store.get(keyOf("op-1")).orElseThrow().toByteArray());
        assertThat(stored.path("state").asText()).isEqualTo("completed");
        assertThat(stored.path("traceId").asText())
                .as("an unknown field survives completion")
                .isEqualTo("abc");
        assertThat(stored.path("startedAtMillis").asLong()).isEqualTo(5);
    }

    @Test
    void aRecordThatDoesNotDecode_isATypedErrorNamingTheKey() {
        LeaderElection a = leader("node-a", new ManualTicker());
        store.create(keyOf("op-1"), MetaValue.utf8("{\"v\":1,\"state\":\"done\"}"));
        OperationJournal journal = journal(store, a);

        assertThatThrownBy(() -> journal.begin(TENANT, "op-1", DIGEST))
                .isInstanceOf(CorruptOperationRecordException.class)
                .hasMessageContaining("ops/acme/op-1");
        assertThatThrownBy(() -> allRecords(journal, OperationJournal.inTenant(TENANT, 10)))
                .isInstanceOf(CorruptOperationRecordException.class)
                .hasMessageContaining("ops/acme/op-1");
    }
}
