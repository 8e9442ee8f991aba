package io.lake.meta.testkit.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lake.meta.FencedException;
import io.lake.meta.InvalidArgumentException;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.lease.LeaderElection;
import io.lake.meta.ops.BeginResult;
import io.lake.meta.ops.CollectionPage;
import io.lake.meta.ops.CorruptOperationRecordException;
import io.lake.meta.ops.IdempotencyConflictException;
import io.lake.meta.ops.JournalWriteResult;
import io.lake.meta.ops.OperationJournal;
import io.lake.meta.ops.OperationOwner;
import io.lake.meta.ops.OperationRecord;
import io.lake.meta.ops.OperationState;
import io.lake.meta.recipes.TypedPage;
import io.lake.meta.recipes.TypedPageRequest;
import io.lake.meta.testkit.PausePoints;
import io.lake.meta.testkit.lease.CountingMetaStore;
import io.lake.meta.testkit.lease.InFlightHooks;
import io.lake.meta.testkit.FaultyStore;
import io.lake.meta.testkit.FaultyStore.Call;
import io.lake.meta.testkit.FaultyStore.Fault;
import io.lake.meta.testkit.lease.ManualTicker;
import io.lake.meta.testkit.registry.RecipeSupport;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * The operation journal suite, written once. A backend runs it with one line, on its
 * {@link io.lake.meta.testkit.BackendFactory}:
 *
 * <pre>{@code
 * @Backend(MyBackend.class)
 * class MyStoreOperationJournalTest extends OperationJournalSuite {}
 * }</pre>
 *
 * <p>Every journal writes through a fenced store over its leader's election. Races are ordered by
 * holding one caller's request in flight ({@link InFlightHooks}); time is manual.
 * @since 0.1.0
 */
public abstract class OperationJournalSuite extends RecipeSupport {

    /** For backends: {@code @Backend(MyBackend.class) class MyStoreOperationJournalTest extends OperationJournalSuite {}}. */
    protected OperationJournalSuite() {
    }

    protected static final Duration RETENTION = Duration.ofHours(1);
    protected static final String TENANT = "acme";
    protected static final String DIGEST = "sha256:0b1c";

    private static final ObjectMapper JSON = new ObjectMapper();

    /** A journal writing through a fenced view of {@code via} for {@code leader}. */
    protected OperationJournal journal(MetaStore via, LeaderElection leader) {
        return OperationJournal.builder().store(fenced(via, leader)).authority(leader).clock(wall).retention(RETENTION)
                .build();
    }

    private static MetaKey keyOf(String operationId) {
        return MetaKey.of("ops/" + TENANT + "/" + operationId);
    }

    @Nested
    class BeginAndReplay {

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
            OperationRecord completed = journal.complete(journal.begin(TENANT, "op-1", DIGEST).record(), "done")
                    .record().orElseThrow();
            CountingMetaStore counting = new CountingMetaStore(store);

            assertThatThrownBy(() -> journal(counting, a).begin(TENANT, "op-1", "sha256:ffff"))
                    .isInstanceOf(IdempotencyConflictException.class).hasMessageContaining("sha256:0b1c")
                    .hasMessageContaining("sha256:ffff").hasMessageContaining("nothing was written")
                    .satisfies(e -> assertThat(((IdempotencyConflictException) e).recorded()).isEqualTo(completed));
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

            assertThat(journalOfFollower.begin(TENANT, "op-1", DIGEST).record().outcome()).contains("done");
            assertThatThrownBy(() -> journalOfFollower.begin(TENANT, "op-2", DIGEST)).isInstanceOf(FencedException.class);
            assertThat(store.get(keyOf("op-2"))).isEmpty();
        }

        @SuppressWarnings("NullAway") // hands null to non-null parameters on purpose: they must be refused
        @Test
        void invalidTenantsIdsAndDigests_areRejected_beforeAnyRead() {
            LeaderElection a = leader("node-a", new ManualTicker());
            CountingMetaStore counting = new CountingMetaStore(store);
            OperationJournal journal = journal(counting, a);

            assertThatThrownBy(() -> journal.begin("acme/eu", "op-1", DIGEST)).isInstanceOf(InvalidArgumentException.class)
                    .hasMessageContaining("tenant 'acme/eu'");
            assertThatThrownBy(() -> journal.begin(TENANT, "", DIGEST)).isInstanceOf(InvalidArgumentException.class)
                    .hasMessageContaining("operation id");
            assertThatThrownBy(() -> journal.begin(TENANT, "op 1", DIGEST)).isInstanceOf(InvalidArgumentException.class);
            assertThatThrownBy(() -> journal.begin(TENANT, "op-1", "")).isInstanceOf(InvalidArgumentException.class)
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
            store.create(keyOf("op-1"), MetaValue.utf8("{\"v\":1,\"digest\":\"" + DIGEST + "\",\"state\":\"in_progress\","
                    + "\"holder\":\"node-a\",\"epoch\":1,\"attempt\":1,\"startedAtMillis\":5,\"traceId\":\"abc\"}"));
            OperationJournal journal = journal(store, a);

            journal.complete(journal.get(TENANT, "op-1").orElseThrow(), "done");

            JsonNode stored = JSON.readTree(store.get(keyOf("op-1")).orElseThrow().toByteArray());
            assertThat(stored.path("state").asText()).isEqualTo("completed");
            assertThat(stored.path("traceId").asText()).as("an unknown field survives completion").isEqualTo("abc");
            assertThat(stored.path("startedAtMillis").asLong()).isEqualTo(5);
        }

        @Test
        void aRecordThatDoesNotDecode_isATypedErrorNamingTheKey() {
            LeaderElection a = leader("node-a", new ManualTicker());
            store.create(keyOf("op-1"), MetaValue.utf8("{\"v\":1,\"state\":\"done\"}"));
            OperationJournal journal = journal(store, a);

            assertThatThrownBy(() -> journal.begin(TENANT, "op-1", DIGEST))
                    .isInstanceOf(CorruptOperationRecordException.class).hasMessageContaining("ops/acme/op-1");
            assertThatThrownBy(() -> allRecords(journal, OperationJournal.inTenant(TENANT, 10)))
                    .isInstanceOf(CorruptOperationRecordException.class).hasMessageContaining("ops/acme/op-1");
        }
    }

    @Nested
    class Races {

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

            OperationRecord recorded = early.complete(early.begin(TENANT, "op-1", DIGEST).record(), "outcome-early")
                    .record().orElseThrow();
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

    @Nested
    class Recovery {

        @Test
        void aLaterLeaderRecoversAnOperationWhoseCallerDiedBetweenBeginAndComplete() {
            LeaderElection a = leader("node-a", new ManualTicker());
            OperationRecord orphan = journal(store, a).begin(TENANT, "op-1", DIGEST).record();
            // node-a dies here: it never completes and never renews
            LeaderElection b = takeOver("node-b");
            OperationJournal journalOfB = journal(store, b);

            List<OperationRecord> orphans = allRecords(journalOfB, OperationJournal.inTenant(TENANT, 10)).stream()
                    .filter(r -> r.state() == OperationState.IN_PROGRESS)
                    .filter(r -> r.owner().epoch() < b.currentGuard().orElseThrow().epoch()).toList();
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
            OperationRecord recovered = journalOfB.recover(journalOfB.get(TENANT, "op-1").orElseThrow())
                    .record().orElseThrow();
            OperationRecord outcomeOfB = journalOfB.complete(recovered, "from-b").record().orElseThrow();
            pause.release();

            assertThatThrownBy(staleComplete::get).isInstanceOf(ExecutionException.class)
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
            OperationJournal unfencedJournalOfA = OperationJournal.builder().store(store).authority(a).clock(wall).build();

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

            assertThatThrownBy(() -> journal.recover(begun)).isInstanceOf(InvalidArgumentException.class)
                    .hasMessageContaining("epoch 1").hasMessageContaining("only a later leader");
            assertThat(journal.get(TENANT, "op-1")).contains(begun);
        }

        @Test
        void endingAnEarlierTermsOperation_withoutRecoveringIt_isRefused() {
            LeaderElection a = leader("node-a", new ManualTicker());
            OperationRecord begun = journal(store, a).begin(TENANT, "op-1", DIGEST).record();
            LeaderElection b = takeOver("node-b");
            OperationJournal journalOfB = journal(store, b);

            assertThatThrownBy(() -> journalOfB.complete(begun, "x")).isInstanceOf(InvalidArgumentException.class)
                    .hasMessageContaining("recover it first");
            assertThatThrownBy(() -> journalOfB.abandon(begun, "x")).isInstanceOf(InvalidArgumentException.class);
            assertThat(journalOfB.get(TENANT, "op-1")).contains(begun);
        }
    }

    /** Issue 23 item 9: a lost answer is resolved by re-reading the record and recognising this write's attempt id. */
    @Nested
    class LostAnswers {

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
            assertThat(journalOfB.complete(recovered.record().orElseThrow(), "done").isApplied()).isTrue();
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

    @Nested
    class GarbageCollection {

        @Test
        void terminalRecordsOlderThanTheRetention_areDeletedInBoundedPages_othersStay() {
            LeaderElection a = leader("node-a", new ManualTicker());
            OperationJournal journal = journal(store, a);
            journal.complete(journal.begin(TENANT, "old-1", DIGEST).record(), "done");
            journal.abandon(journal.begin(TENANT, "old-2", DIGEST).record(), "declined");
            journal.complete(journal.begin("other", "old-3", DIGEST).record(), "done");
            OperationRecord oldButRunning = journal.begin(TENANT, "running", DIGEST).record();
            wall.advance(RETENTION);
            OperationRecord recent = journal.complete(journal.begin(TENANT, "recent", DIGEST).record(), "done")
                    .record().orElseThrow();

            int deleted = 0;
            int pages = 0;
            Optional<TypedPageRequest<OperationRecord>> request = Optional.of(OperationJournal.allTenants(2));
            while (request.isPresent()) {
                CollectionPage page = journal.collectGarbage(request.get());
                assertThat(page.scanned()).as("page %d is bounded", pages).isLessThanOrEqualTo(2);
                deleted += page.deleted();
                request = page.nextToken().map(request.get()::after);
                pages++;
                assertThat(pages).isLessThan(100);
            }

            assertThat(deleted).isEqualTo(3);
            Map<MetaKey, MetaValue> left = contents("ops");
            assertThat(left).containsOnlyKeys(keyOf("running"), keyOf("recent"));
            assertThat(left.get(keyOf("running"))).isEqualTo(oldButRunning.storedValue());
            assertThat(left.get(keyOf("recent"))).isEqualTo(recent.storedValue());
        }

        @Test
        void aReplayAfterItsRecordWasCollected_beginsTheOperationAnew() {
            LeaderElection a = leader("node-a", new ManualTicker());
            OperationJournal journal = journal(store, a);
            journal.complete(journal.begin(TENANT, "op-1", DIGEST).record(), "done");
            wall.advance(RETENTION);
            assertThat(collectAll(journal, OperationJournal.inTenant(TENANT, 10))).isEqualTo(1);

            assertThat(journal.begin(TENANT, "op-1", DIGEST).kind()).isEqualTo(BeginResult.Kind.STARTED);
        }
    }

    /** Every record of {@code first}'s selection, looping on the token. */
    protected static List<OperationRecord> allRecords(OperationJournal journal, TypedPageRequest<OperationRecord> first) {
        List<OperationRecord> all = new ArrayList<>();
        Optional<TypedPageRequest<OperationRecord>> request = Optional.of(first);
        while (request.isPresent()) {
            TypedPage<OperationRecord> page = journal.page(request.get());
            all.addAll(page.items());
            request = page.nextToken().map(request.get()::after);
        }
        return all;
    }

    /** Collects every page of {@code first}'s selection, looping on the token; how many records were deleted. */
    protected static int collectAll(OperationJournal journal, TypedPageRequest<OperationRecord> first) {
        int deleted = 0;
        Optional<TypedPageRequest<OperationRecord>> request = Optional.of(first);
        while (request.isPresent()) {
            CollectionPage page = journal.collectGarbage(request.get());
            deleted += page.deleted();
            request = page.nextToken().map(request.get()::after);
        }
        return deleted;
    }
}
