package io.lake.meta.dynamo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.lake.meta.GuardedMutation;
import io.lake.meta.GuardedResult;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaValue;
import io.lake.meta.Mutation;
import io.lake.meta.OutcomeUnknownException;
import io.lake.meta.StoreUnavailableException;
import io.lake.meta.WriteResult;
import io.lake.meta.lease.LeaderElection;
import io.lake.meta.lease.LeadershipStatus;
import io.lake.meta.testkit.lease.ManualClock;
import io.lake.meta.testkit.lease.ManualTicker;
import io.lake.meta.testserver.dynamodb.DynamoDbTestServer;
import io.lake.meta.testserver.dynamodb.fault.Fault;
import io.lake.meta.testserver.dynamodb.stats.TableStatistics;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * Writes whose answers cannot prove what happened. DynamoDB may apply a write and still answer
 * 500, so a 5xx or a lost response proves nothing; only an answer DynamoDB gives instead of
 * executing (throttling, a transaction conflict, a failed condition on the only attempt) does.
 * A write any of whose attempts may have applied is {@link OutcomeUnknownException}, unless a
 * later answer proves the outcome (a success). Through the real SDK with 4 attempts.
 */
class DynamoUnknownOutcomeTest extends DynamoTestSupport {

    private static final MetaKey GUARD = MetaKey.of("lease/leader");
    private static final MetaKey K = MetaKey.of("tbl/ns1/orders");
    private static final MetaKey FRESH = MetaKey.of("tbl/ns1/fresh");
    private static final MetaValue LEASE = MetaValue.utf8("holder=a;epoch=1");
    private static final MetaValue V0 = MetaValue.utf8("v0");
    private static final MetaValue V1 = MetaValue.utf8("v1");

    private DynamoDbTestServer server;
    private DynamoTableStore store;
    private String table;

    @BeforeEach
    void openOnTheInProcessServer() {
        server = TARGET.requireInProcessServer();
        DynamoDbClient client =
                track(TARGET.newClient(b -> b.overrideConfiguration(o -> o.retryStrategy(r -> r.maxAttempts(4)))));
        store = openNew(client, "unknown", null);
        table = tableOf(store);
        store.create(GUARD, LEASE);
        store.create(K, V0);
    }

    /** The first attempt of {@code operation} applies and is answered 500; the SDK retries. */
    private void firstAttemptAppliesThenAnswers500(String operation) {
        server.faults()
                .arm(Fault.applyThenInternalServerError()
                        .onOperation(operation)
                        .onTable(table)
                        .onAttempt(1));
    }

    private void thenEveryAttemptAnswers500(String operation) {
        server.faults()
                .arm(Fault.internalServerError()
                        .onOperation(operation)
                        .onTable(table)
                        .always());
    }

    private void assertOutcomeUnknown(Supplier<?> call) {
        AtomicReference<Object> answer = new AtomicReference<>();
        Throwable thrown = catchThrowable(() -> answer.set(call.get()));
        assertThat(thrown)
                .as(thrown == null ? "the store answered '" + answer.get() + "'" : "the call")
                .isInstanceOf(OutcomeUnknownException.class)
                .hasMessageContaining("may or may not have applied")
                .hasMessageContaining("re-read");
        server.faults().clear();
    }

    private GuardedMutation guarded(Mutation target) {
        return new GuardedMutation(GUARD, LEASE, target);
    }

    // ---- item 1: a 5xx does not prove that a write did not apply ----------------------------

    @Test
    void createAppliedThen500_retried_isOutcomeUnknown_notAConflictWithItsOwnValue() {
        firstAttemptAppliesThenAnswers500("PutItem");
        assertOutcomeUnknown(() -> store.create(FRESH, V1));
        assertThat(store.get(FRESH)).as("the first attempt applied").contains(V1);
    }

    @Test
    void updateAppliedThen500_retried_isOutcomeUnknown_notAConflictWithItsOwnValue() {
        firstAttemptAppliesThenAnswers500("PutItem");
        assertOutcomeUnknown(() -> store.update(K, V0, V1));
        assertThat(store.get(K)).contains(V1);
    }

    @Test
    void deleteAppliedThen500_retried_isOutcomeUnknown_notAConflictWithAnAbsentKey() {
        firstAttemptAppliesThenAnswers500("DeleteItem");
        assertOutcomeUnknown(() -> store.delete(K, V0));
        assertThat(store.get(K)).isEmpty();
    }

    @Test
    void guardedAppliedThen500_retriedWithTheSameToken_isApplied() {
        // A later answer can prove the outcome: DynamoDB replays the committed token as success.
        firstAttemptAppliesThenAnswers500("TransactWriteItems");
        TableStatistics before = server.statistics().table(table);
        assertThat(store.applyGuarded(guarded(Mutation.update(K, V0, V1)))).isEqualTo(GuardedResult.applied());
        assertThat(requestsSince(before, server, table)).isEqualTo(Map.of("TransactWriteItems", 2L));
        assertThat(store.get(K)).contains(V1);
    }

    @Test
    void everyAttempt500_firstApplied_createUpdateDelete_areOutcomeUnknown_notUnavailable() {
        firstAttemptAppliesThenAnswers500("PutItem");
        thenEveryAttemptAnswers500("PutItem");
        assertOutcomeUnknown(() -> store.create(FRESH, V1));
        assertThat(store.get(FRESH)).contains(V1);

        firstAttemptAppliesThenAnswers500("PutItem");
        thenEveryAttemptAnswers500("PutItem");
        assertOutcomeUnknown(() -> store.update(K, V0, V1));
        assertThat(store.get(K)).contains(V1);

        firstAttemptAppliesThenAnswers500("DeleteItem");
        thenEveryAttemptAnswers500("DeleteItem");
        assertOutcomeUnknown(() -> store.delete(K, V1));
        assertThat(store.get(K)).isEmpty();
    }

    @Test
    void everyAttempt500_firstApplied_guardedWrite_isOutcomeUnknown_notUnavailable() {
        firstAttemptAppliesThenAnswers500("TransactWriteItems");
        thenEveryAttemptAnswers500("TransactWriteItems");
        assertOutcomeUnknown(() -> store.applyGuarded(guarded(Mutation.update(K, V0, V1))));
        assertThat(store.get(K)).contains(V1);
    }

    @Test
    void appliedThen500_thenThrottled_isOutcomeUnknown_aThrottleProvesNothingAboutTheFirstAttempt() {
        firstAttemptAppliesThenAnswers500("PutItem");
        server.faults()
                .arm(Fault.throttling().onOperation("PutItem").onTable(table).always());
        assertOutcomeUnknown(() -> store.update(K, V0, V1));
        assertThat(store.get(K)).contains(V1);
    }

    @Test
    void everyAttempt500_onARead_staysRetryableUnavailable() {
        server.faults()
                .arm(Fault.internalServerError()
                        .onOperation("GetItem")
                        .onTable(table)
                        .always());
        assertThatThrownBy(() -> store.get(K))
                .isInstanceOf(StoreUnavailableException.class)
                .hasMessageContaining("InternalServerError");
    }

    @Test
    void onlyThrottled_isUnavailable_aThrottleProvesNothingApplied() {
        server.faults()
                .arm(Fault.throttling().onOperation("PutItem").onTable(table).always());
        assertThatThrownBy(() -> store.update(K, V0, V1))
                .isInstanceOf(StoreUnavailableException.class)
                .hasMessageContaining("nothing was applied");
        server.faults().clear();
        assertThat(store.get(K)).contains(V0);
    }

    @Test
    void throttledThenConditionFailed_isAConflict_theThrottledAttemptsProveNothingApplied() {
        server.faults()
                .arm(Fault.throttling().onOperation("PutItem").onTable(table).times(2));
        assertThat(store.update(K, MetaValue.utf8("stale"), V1)).isEqualTo(WriteResult.conflict(Optional.of(V0)));
    }

    @Test
    void leaseAcquisitionAppliedThen500_retried_leadsAtTheNextRound_notFollowingItsOwnRecord() {
        firstAttemptAppliesThenAnswers500("PutItem");
        assertLeadsAfterTheFaultedRound();
    }

    @Test
    void leaseAcquisitionAppliedThen500OnEveryAttempt_leadsAtTheNextRound() {
        firstAttemptAppliesThenAnswers500("PutItem");
        thenEveryAttemptAnswers500("PutItem");
        assertLeadsAfterTheFaultedRound();
    }

    /**
     * With the faults armed, a first round creates the lease record; its answer cannot prove the
     * outcome. The election must then learn that it holds the lease (it re-reads after an
     * unknown outcome and adopts its own write), not follow its own record until it expires.
     */
    private void assertLeadsAfterTheFaultedRound() {
        try (LeaderElection election = LeaderElection.builder()
                .store(store)
                .leaseKey(MetaKey.of("lease/orders-writer"))
                .candidateId("node-a")
                .leaseDuration(Duration.ofSeconds(10))
                .renewInterval(Duration.ofSeconds(3))
                .clock(new ManualClock(1_767_225_600_000L))
                .ticker(new ManualTicker())
                .build()) {
            Object faulted;
            try {
                faulted = election.campaignOnce();
            } catch (OutcomeUnknownException e) {
                faulted = e; // the election keeps the record it sent and resolves it next round
            }
            server.faults().clear();
            assertThat(faulted).as("the faulted round").isNotInstanceOf(LeadershipStatus.Follower.class);
            assertThat(election.campaignOnce()).as("the next round").isEqualTo(new LeadershipStatus.Leader(1));
            assertThat(election.currentGuard()).isPresent();
        }
    }

    // ---- item 2: a guarded write whose earlier attempt may have applied ---------------------

    /** The first attempt of the transaction applies and its response is lost; the SDK retries. */
    private void firstTransactionAppliesResponseLost() {
        server.faults()
                .arm(Fault.applyThenDropResponse()
                        .onOperation("TransactWriteItems")
                        .onTable(table)
                        .onAttempt(1));
    }

    @Test
    void guardedResponseLost_thenTransactionConflict_isOutcomeUnknown() {
        firstTransactionAppliesResponseLost();
        server.faults()
                .arm(Fault.transactionConflict(1)
                        .onOperation("TransactWriteItems")
                        .onTable(table)
                        .always());
        assertOutcomeUnknown(() -> store.applyGuarded(guarded(Mutation.update(K, V0, V1))));
        assertThat(store.get(K)).as("the first attempt applied").contains(V1);
    }

    @Test
    void guardedResponseLost_thenCancelledWithThrottlingError_isOutcomeUnknown() {
        firstTransactionAppliesResponseLost();
        server.faults()
                .arm(Fault.cancellation(0, "ThrottlingError")
                        .onOperation("TransactWriteItems")
                        .onTable(table)
                        .always());
        assertOutcomeUnknown(() -> store.applyGuarded(guarded(Mutation.delete(K, V0))));
        assertThat(store.get(K)).isEmpty();
    }

    @Test
    void guardedResponseLost_thenTargetConditionFailed_isOutcomeUnknown_notATargetConflict() {
        firstTransactionAppliesResponseLost();
        server.faults()
                .arm(Fault.cancellation(1, "ConditionalCheckFailed")
                        .onOperation("TransactWriteItems")
                        .onTable(table)
                        .always());
        assertOutcomeUnknown(() -> store.applyGuarded(guarded(Mutation.create(FRESH, V1))));
        assertThat(store.get(FRESH)).contains(V1);
    }

    @Test
    void guardedAppliedThen500_thenTransactionConflict_isOutcomeUnknown() {
        firstAttemptAppliesThenAnswers500("TransactWriteItems");
        server.faults()
                .arm(Fault.transactionConflict(0)
                        .onOperation("TransactWriteItems")
                        .onTable(table)
                        .always());
        assertOutcomeUnknown(() -> store.applyGuarded(guarded(Mutation.update(K, V0, V1))));
        assertThat(store.get(K)).contains(V1);
    }

    @Test
    void transactionConflictOnTheOnlyAttempt_staysRetryableUnavailable() {
        server.faults()
                .arm(Fault.transactionConflict(1)
                        .onOperation("TransactWriteItems")
                        .onTable(table));
        assertThatThrownBy(() -> store.applyGuarded(guarded(Mutation.update(K, V0, V1))))
                .isInstanceOf(StoreUnavailableException.class)
                .hasMessageContaining("nothing was applied");
        assertThat(store.get(K)).contains(V0);
    }
}
