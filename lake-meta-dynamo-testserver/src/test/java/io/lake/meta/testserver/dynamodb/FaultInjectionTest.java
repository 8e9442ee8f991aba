package io.lake.meta.testserver.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.testserver.dynamodb.fault.ArmedFault;
import io.lake.meta.testserver.dynamodb.fault.Fault;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.InternalServerErrorException;
import software.amazon.awssdk.services.dynamodb.model.ProvisionedThroughputExceededException;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.TransactionConflictException;

@SuppressWarnings("unchecked") // the SDK's builder methods take generic varargs
class FaultInjectionTest extends ServerTestSupport {

    static DynamoDbClient noRetry;

    @BeforeAll
    static void noRetryClient() {
        noRetry = newNoRetryClient(server);
    }

    @AfterAll
    static void closeNoRetry() {
        noRetry.close();
    }

    @BeforeEach
    void table() {
        createTable("faults", null);
        createTable("calm", null);
    }

    private static void put(DynamoDbClient c, String table, String pk) {
        c.putItem(r -> r.tableName(table).item(key(pk)));
    }

    private static boolean exists(String table, String pk) {
        return client.getItem(r -> r.tableName(table).key(key(pk)).consistentRead(true))
                .hasItem();
    }

    @Test
    void throttleNextTwo_sdkRetriesAndSucceedsOnTheThirdAttempt() {
        ArmedFault fault = server.faults()
                .arm(Fault.provisionedThroughputExceeded()
                        .onOperation("PutItem")
                        .times(2));
        put(client, "faults", "a");
        assertThat(fault.fired()).isEqualTo(2);
        assertThat(fault.exhausted()).isTrue();
        assertThat(server.statistics().table("faults").requests("PutItem")).isEqualTo(3);
        assertThat(exists("faults", "a")).isTrue();
    }

    @Test
    void throttle_withoutRetries_surfacesTheRealException() {
        server.faults().arm(Fault.provisionedThroughputExceeded());
        assertThatThrownBy(() -> put(noRetry, "faults", "a"))
                .isInstanceOfSatisfying(ProvisionedThroughputExceededException.class, e -> {
                    assertThat(e.statusCode()).isEqualTo(400);
                    assertThat(e.awsErrorDetails().errorMessage())
                            .startsWith("The level of configured provisioned throughput");
                    assertThat(e.isThrottlingException()).isTrue();
                });
        assertThat(exists("faults", "a")).isFalse();
    }

    @Test
    void throttlingException_isRetryableThrottling() {
        server.faults().arm(Fault.throttling());
        assertThatThrownBy(() -> put(noRetry, "faults", "a")).isInstanceOfSatisfying(DynamoDbException.class, e -> {
            assertThat(e.awsErrorDetails().errorCode()).isEqualTo("ThrottlingException");
            assertThat(e.isThrottlingException()).isTrue();
        });
    }

    @Test
    void internalServerErrorAndServiceUnavailable_haveTheirStatuses() {
        server.faults().arm(Fault.internalServerError());
        assertThatThrownBy(() -> put(noRetry, "faults", "a"))
                .isInstanceOfSatisfying(
                        InternalServerErrorException.class,
                        e -> assertThat(e.statusCode()).isEqualTo(500));
        server.faults().arm(Fault.serviceUnavailable());
        assertThatThrownBy(() -> put(noRetry, "faults", "a"))
                .isInstanceOfSatisfying(
                        DynamoDbException.class, e -> assertThat(e.statusCode()).isEqualTo(503));
        assertThat(exists("faults", "a")).isFalse();
        server.faults().arm(Fault.serviceUnavailable());
        put(client, "faults", "a");
        assertThat(exists("faults", "a")).isTrue();
    }

    @Test
    void faultOnOneTable_leavesOtherTablesAlone() {
        ArmedFault fault = server.faults()
                .arm(Fault.internalServerError().onTable("faults").always());
        put(noRetry, "calm", "a");
        assertThatThrownBy(() -> put(noRetry, "faults", "a")).isInstanceOf(InternalServerErrorException.class);
        assertThat(fault.fired()).isEqualTo(1);
    }

    @Test
    void faultOnAttempt_hitsOnlyThatAttempt() {
        ArmedFault first = server.faults()
                .arm(Fault.internalServerError()
                        .onOperation("PutItem")
                        .onAttempt(1)
                        .always());
        ArmedFault second = server.faults()
                .arm(Fault.throttling().onOperation("PutItem").onAttempt(2).always());
        put(client, "faults", "a");
        assertThat(first.fired()).isEqualTo(1);
        assertThat(second.fired()).isEqualTo(1);
        assertThat(server.statistics().table("faults").requests("PutItem")).isEqualTo(3);
    }

    @Test
    void applyThenDropResponse_appliesTheWriteAndTheRetryOfAConditionalPutSeesItsOwnWrite() {
        server.faults().arm(Fault.applyThenDropResponse().onOperation("PutItem").onAttempt(1));
        // the hazard the backend must handle: the retry of a conditional create meets the first attempt's write
        assertThatThrownBy(() -> client.putItem(
                        r -> r.tableName("faults").item(key("a")).conditionExpression("attribute_not_exists(pk)")))
                .isInstanceOf(ConditionalCheckFailedException.class);
        assertThat(exists("faults", "a")).isTrue();
    }

    @Test
    void applyThenDropResponse_withoutRetries_isAClientSideIoFailure() {
        server.faults().arm(Fault.applyThenDropResponse());
        assertThatThrownBy(() -> put(noRetry, "faults", "a")).isInstanceOf(SdkClientException.class);
        assertThat(exists("faults", "a")).isTrue();
    }

    @Test
    void applyThenDropResponse_transactionRetryWithSameTokenIsNotAFalseConflict() {
        server.faults()
                .arm(Fault.applyThenDropResponse()
                        .onOperation("TransactWriteItems")
                        .onAttempt(1));
        client.transactWriteItems(r -> r.transactItems(TransactWriteItem.builder()
                .put(p -> p.tableName("faults").item(key("a")).conditionExpression("attribute_not_exists(pk)"))
                .build()));
        assertThat(exists("faults", "a")).isTrue();
        assertThat(server.statistics().table("faults").requests("TransactWriteItems"))
                .isEqualTo(2);
    }

    @Test
    void dropConnection_beforeApplying_retrySucceeds() {
        ArmedFault fault = server.faults().arm(Fault.dropConnection().onOperation("PutItem"));
        assertThatThrownBy(() -> put(noRetry, "faults", "a")).isInstanceOf(SdkClientException.class);
        assertThat(exists("faults", "a")).isFalse();
        assertThat(fault.fired()).isEqualTo(1);
        server.faults().arm(Fault.dropConnection().onOperation("PutItem"));
        put(client, "faults", "a");
        assertThat(exists("faults", "a")).isTrue();
    }

    @Test
    void transactionConflict_onTransaction_isCancellationReasonAtTheChosenAction() {
        server.faults().arm(Fault.transactionConflict(1));
        assertThatThrownBy(() -> noRetry.transactWriteItems(r -> r.transactItems(
                        TransactWriteItem.builder()
                                .put(p -> p.tableName("faults").item(key("a")))
                                .build(),
                        TransactWriteItem.builder()
                                .put(p -> p.tableName("faults").item(key("b")))
                                .build())))
                .isInstanceOfSatisfying(TransactionCanceledException.class, e -> {
                    assertThat(e.cancellationReasons())
                            .extracting(CancellationReason::code)
                            .containsExactly("None", "TransactionConflict");
                    assertThat(e.cancellationReasons().get(1).message())
                            .isEqualTo("Transaction is ongoing for the item.");
                });
        assertThat(exists("faults", "a")).isFalse();
    }

    @Test
    void transactionConflict_onSingleItemWrite_isTransactionConflictException() {
        server.faults().arm(Fault.transactionConflict().onOperation("PutItem"));
        assertThatThrownBy(() -> put(noRetry, "faults", "a")).isInstanceOf(TransactionConflictException.class);
    }

    @Test
    void injectedCancellation_throttlingReasonOnTheChosenAction() {
        server.faults().arm(Fault.cancellation(0, "ThrottlingError"));
        assertThatThrownBy(() -> client.transactWriteItems(r -> r.transactItems(
                        TransactWriteItem.builder()
                                .put(p -> p.tableName("faults").item(key("a")))
                                .build(),
                        TransactWriteItem.builder()
                                .put(p -> p.tableName("faults").item(key("b")))
                                .build())))
                .isInstanceOfSatisfying(TransactionCanceledException.class, e -> {
                    assertThat(e.cancellationReasons())
                            .extracting(CancellationReason::code)
                            .containsExactly("ThrottlingError", "None");
                    assertThat(e.cancellationReasons().get(0).message())
                            .startsWith("Throughput exceeds the current capacity");
                    assertThat(e.awsErrorDetails().errorMessage()).endsWith("[ThrottlingError, None]");
                });
        assertThat(exists("faults", "a")).isFalse();
    }

    @Test
    void injectedCancellation_unknownCodeIsSentAsIsAndOnlyHitsTransactions() {
        ArmedFault fault = server.faults().arm(Fault.cancellation(5, "BrandNewReason"));
        put(noRetry, "faults", "plain");
        assertThat(fault.fired()).isZero();
        assertThatThrownBy(() -> client.transactWriteItems(r -> r.transactItems(TransactWriteItem.builder()
                        .put(p -> p.tableName("faults").item(key("a")))
                        .build())))
                .isInstanceOfSatisfying(
                        TransactionCanceledException.class,
                        e -> assertThat(e.cancellationReasons())
                                .extracting(CancellationReason::code)
                                .containsExactly("BrandNewReason"));
    }

    @Test
    void applyThenInternalServerError_appliesAndAnswers500() {
        server.faults().arm(Fault.applyThenInternalServerError().onOperation("PutItem"));
        assertThatThrownBy(() -> put(noRetry, "faults", "a"))
                .isInstanceOfSatisfying(
                        InternalServerErrorException.class,
                        e -> assertThat(e.statusCode()).isEqualTo(500));
        assertThat(exists("faults", "a")).isTrue();
    }

    @Test
    void unprocessed_batchWriteHandsBackTheLastRequestsUnapplied() {
        java.util.List<software.amazon.awssdk.services.dynamodb.model.WriteRequest> writes =
                new java.util.ArrayList<>();
        for (int i = 0; i < 5; i++) {
            writes.add(software.amazon.awssdk.services.dynamodb.model.WriteRequest.builder()
                    .putRequest(p -> p.item(key("w" + writes.size())))
                    .build());
        }
        server.faults().arm(Fault.unprocessed(2));
        var response = client.batchWriteItem(r -> r.requestItems(Map.of("faults", writes)));
        assertThat(response.unprocessedItems().get("faults")).hasSize(2);
        assertThat(exists("faults", "w2")).isTrue();
        assertThat(exists("faults", "w3")).isFalse();
        assertThat(exists("faults", "w4")).isFalse();
        var retry = client.batchWriteItem(r -> r.requestItems(response.unprocessedItems()));
        assertThat(retry.unprocessedItems()).isEmpty();
        assertThat(exists("faults", "w4")).isTrue();
    }

    @Test
    void unprocessed_batchGetKeepsTheTableSpecForTheLeftoverKeys() {
        put(client, "faults", "a");
        put(client, "faults", "b");
        server.faults().arm(Fault.unprocessed(5));
        var response = client.batchGetItem(r -> r.requestItems(Map.of(
                "faults",
                software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes.builder()
                        .keys(key("a"), key("b"))
                        .projectionExpression("pk")
                        .consistentRead(true)
                        .build())));
        assertThat(response.responses().get("faults")).isNullOrEmpty();
        var leftover = response.unprocessedKeys().get("faults");
        assertThat(leftover.keys()).containsExactly(key("a"), key("b"));
        assertThat(leftover.projectionExpression()).isEqualTo("pk");
        assertThat(leftover.consistentRead()).isTrue();
        assertThat(client.batchGetItem(r -> r.requestItems(response.unprocessedKeys()))
                        .responses()
                        .get("faults"))
                .hasSize(2);
    }

    @Test
    void unprocessed_emptyRequestItemsIsStillAValidationError() {
        assertThatThrownBy(() -> client.batchWriteItem(r -> r.requestItems(Map.of())))
                .isInstanceOf(DynamoDbException.class)
                .hasMessageContaining("requestItems");
    }

    @Test
    void latency_delaysThenAnswersNormally() {
        ArmedFault slow =
                server.faults().arm(Fault.latency(Duration.ofMillis(200)).onOperation("GetItem"));
        long start = System.nanoTime();
        client.getItem(r -> r.tableName("faults").key(key("a")));
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(200));
        assertThat(slow.fired()).isEqualTo(1);
    }

    @Test
    void clear_disarmsEverything() {
        server.faults().arm(Fault.internalServerError().always());
        server.faults().clear();
        put(noRetry, "faults", "a");
        assertThat(server.faults().armed()).isEmpty();
    }

    @Test
    void faultBuilders_failFast() {
        assertThatThrownBy(() -> Fault.throttling().times(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Fault.throttling().onAttempt(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Fault.latency(Duration.ofMillis(-1))).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void statistics_countRequestsEvaluatedReturnedAndCapacityPerTable() {
        for (int i = 0; i < 4; i++) {
            client.putItem(r -> r.tableName("faults").item(Map.of("pk", s("k" + System.nanoTime()), "v", n("1"))));
        }
        client.scan(r ->
                r.tableName("faults").filterExpression("v = :two").expressionAttributeValues(Map.of(":two", n("2"))));
        var stats = server.statistics().table("faults");
        assertThat(stats.requests("PutItem")).isEqualTo(4);
        assertThat(stats.requests("Scan")).isEqualTo(1);
        assertThat(stats.itemsEvaluated()).isEqualTo(4 + 4); // four writes, four scanned
        assertThat(stats.itemsReturned()).isZero();
        assertThat(stats.writeCapacityUnits()).isEqualTo(4.0);
        assertThat(stats.readCapacityUnits()).isEqualTo(0.5);
        assertThat(server.statistics().table("calm").requests()).isEqualTo(Map.of("CreateTable", 1L));
    }
}
