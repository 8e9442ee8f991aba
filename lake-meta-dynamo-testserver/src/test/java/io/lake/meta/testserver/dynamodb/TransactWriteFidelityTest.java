package io.lake.meta.testserver.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.ConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.IdempotentParameterMismatchException;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ReturnConsumedCapacity;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsResponse;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

@SuppressWarnings("unchecked") // the SDK's builder methods take generic varargs
class TransactWriteFidelityTest extends ServerTestSupport {

    @BeforeEach
    void table() {
        createTable("txn", null);
    }

    private static TransactWriteItem put(String pk, String v) {
        return TransactWriteItem.builder()
                .put(p -> p.tableName("txn").item(Map.of("pk", s(pk), "v", s(v))))
                .build();
    }

    private static TransactWriteItem checkEquals(String pk, String v) {
        return TransactWriteItem.builder()
                .conditionCheck(c -> c.tableName("txn")
                        .key(key(pk))
                        .conditionExpression("v = :v")
                        .expressionAttributeValues(Map.of(":v", s(v)))
                        .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD))
                .build();
    }

    private static String value(String pk) {
        var item = client.getItem(r -> r.tableName("txn").key(key(pk)).consistentRead(true));
        return item.hasItem() ? item.item().get("v").s() : null;
    }

    @Test
    void allConditionsPass_everyWriteApplies() {
        client.putItem(r -> r.tableName("txn").item(Map.of("pk", s("guard"), "v", s("g1"))));
        client.putItem(r -> r.tableName("txn").item(Map.of("pk", s("gone"), "v", s("x"))));
        client.transactWriteItems(r -> r.transactItems(
                checkEquals("guard", "g1"),
                put("target", "t1"),
                TransactWriteItem.builder()
                        .delete(d -> d.tableName("txn").key(key("gone")))
                        .build(),
                TransactWriteItem.builder()
                        .update(u -> u.tableName("txn")
                                .key(key("upd"))
                                .updateExpression("SET v = :v")
                                .expressionAttributeValues(Map.of(":v", s("u1"))))
                        .build()));
        assertThat(value("target")).isEqualTo("t1");
        assertThat(value("gone")).isNull();
        assertThat(value("upd")).isEqualTo("u1");
    }

    @Test
    void failedCondition_cancelsWithOneReasonPerActionInOrder() {
        client.putItem(r -> r.tableName("txn").item(Map.of("pk", s("guard"), "v", s("other"))));
        assertThatThrownBy(() -> client.transactWriteItems(r -> r.transactItems(
                        put("target", "t1"), checkEquals("guard", "g1"), checkEquals("absentguard", "x"))))
                .isInstanceOfSatisfying(TransactionCanceledException.class, e -> {
                    assertThat(e.statusCode()).isEqualTo(400);
                    assertThat(e.awsErrorDetails().errorMessage())
                            .isEqualTo(
                                    "Transaction cancelled, please refer "
                                            + "cancellation reasons for specific reasons [None, ConditionalCheckFailed, ConditionalCheckFailed]");
                    List<CancellationReason> reasons = e.cancellationReasons();
                    assertThat(reasons)
                            .extracting(CancellationReason::code)
                            .containsExactly("None", "ConditionalCheckFailed", "ConditionalCheckFailed");
                    assertThat(reasons.get(0).message()).isNull();
                    assertThat(reasons.get(1).message()).isEqualTo("The conditional request failed");
                    assertThat(reasons.get(1).item()).isEqualTo(Map.of("pk", s("guard"), "v", s("other")));
                    assertThat(reasons.get(2).hasItem()).isFalse();
                });
        assertThat(value("target")).isNull();
    }

    @Test
    void sameItemTwice_isTopLevelValidation() {
        assertThatThrownBy(() -> client.transactWriteItems(r -> r.transactItems(put("a", "1"), checkEquals("a", "1"))))
                .isExactlyInstanceOf(DynamoDbException.class)
                .hasMessageStartingWith("Transaction request cannot include multiple operations on one item");
    }

    @Test
    void moreThan100Actions_isRejectedAnd100Accepted() {
        List<TransactWriteItem> hundred = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            hundred.add(put("k" + i, "v"));
        }
        client.transactWriteItems(r -> r.transactItems(hundred));
        List<TransactWriteItem> more = new ArrayList<>(hundred);
        more.add(put("k100", "v"));
        assertThatThrownBy(() -> client.transactWriteItems(r -> r.transactItems(more)))
                .hasMessageContaining(
                        "at 'transactItems' failed to satisfy constraint: Member must have length less than or equal to 100");
        assertThatThrownBy(() -> client.transactWriteItems(r -> r.transactItems(List.of())))
                .hasMessageStartingWith("1 validation error detected: Value '[]' at 'transactItems' failed to satisfy "
                        + "constraint: Member must have length greater than or equal to 1");
    }

    @Test
    void moreThan4Megabytes_isRejected() {
        List<TransactWriteItem> puts = new ArrayList<>();
        String big = "x".repeat(400_000);
        for (int i = 0; i < 11; i++) {
            puts.add(put("big" + i, big));
        }
        assertThatThrownBy(() -> client.transactWriteItems(r -> r.transactItems(puts)))
                .isInstanceOf(DynamoDbException.class)
                .hasMessageContaining("size cannot exceed");
        assertThat(value("big0")).isNull();
    }

    @Test
    void missingTable_isTopLevelResourceNotFound() {
        assertThatThrownBy(() -> client.transactWriteItems(r -> r.transactItems(TransactWriteItem.builder()
                        .put(p -> p.tableName("nosuch").item(key("a")))
                        .build())))
                .isInstanceOf(ResourceNotFoundException.class)
                .hasMessageStartingWith("Requested resource not found");
    }

    @Test
    void schemaError_isFirstValidationErrorReasonOthersNone() {
        client.putItem(r -> r.tableName("txn").item(Map.of("pk", s("guard"), "v", s("other"))));
        assertThatThrownBy(() -> client.transactWriteItems(r -> r.transactItems(
                        checkEquals("guard", "g1"),
                        TransactWriteItem.builder()
                                .put(p -> p.tableName("txn").item(Map.of("pk", n("1"))))
                                .build())))
                .isInstanceOfSatisfying(TransactionCanceledException.class, e -> {
                    assertThat(e.cancellationReasons())
                            .extracting(CancellationReason::code)
                            .containsExactly("None", "ValidationError");
                    assertThat(e.cancellationReasons().get(1).message())
                            .isEqualTo(
                                    "One or more parameter values were invalid: Type mismatch for key pk expected: S actual: N");
                });
    }

    @Test
    void emptyKeyValue_isTopLevelValidation() {
        assertThatThrownBy(() -> client.transactWriteItems(r -> r.transactItems(put("", "v"))))
                .isExactlyInstanceOf(DynamoDbException.class)
                .hasMessageStartingWith(
                        "One or more parameter values are not valid. The AttributeValue for a key attribute "
                                + "cannot contain an empty string value. Key: pk");
    }

    @Test
    void unusedPlaceholderInAnAction_isTopLevelValidation() {
        assertThatThrownBy(() -> client.transactWriteItems(r -> r.transactItems(TransactWriteItem.builder()
                        .conditionCheck(c -> c.tableName("txn")
                                .key(key("a"))
                                .conditionExpression("attribute_exists(pk)")
                                .expressionAttributeValues(Map.of(":x", s("1"))))
                        .build())))
                .isExactlyInstanceOf(DynamoDbException.class)
                .hasMessageContaining("Value provided in ExpressionAttributeValues unused in expressions: keys: {:x}");
    }

    @Test
    void clientRequestToken_replayWithinWindowDoesNotApplyAgain() {
        client.transactWriteItems(r -> r.clientRequestToken("tok-1")
                .transactItems(TransactWriteItem.builder()
                        .update(u -> u.tableName("txn")
                                .key(key("ctr"))
                                .updateExpression("ADD n :one")
                                .expressionAttributeValues(Map.of(":one", n("1"))))
                        .build()));
        TransactWriteItemsResponse replay = client.transactWriteItems(r -> r.clientRequestToken("tok-1")
                .transactItems(TransactWriteItem.builder()
                        .update(u -> u.tableName("txn")
                                .key(key("ctr"))
                                .updateExpression("ADD n :one")
                                .expressionAttributeValues(Map.of(":one", n("1"))))
                        .build()));
        assertThat(replay).isNotNull();
        assertThat(client.getItem(r -> r.tableName("txn").key(key("ctr")))
                        .item()
                        .get("n")
                        .n())
                .isEqualTo("1");
    }

    @Test
    void clientRequestToken_withDifferentParameters_isMismatch() {
        client.transactWriteItems(r -> r.clientRequestToken("tok-2").transactItems(put("a", "1")));
        assertThatThrownBy(() -> client.transactWriteItems(
                        r -> r.clientRequestToken("tok-2").transactItems(put("a", "2"))))
                .isInstanceOfSatisfying(
                        IdempotentParameterMismatchException.class,
                        e -> assertThat(e.statusCode()).isEqualTo(400));
        assertThat(value("a")).isEqualTo("1");
    }

    @Test
    void clientRequestToken_afterTenMinutes_isANewRequest() {
        MutableClock clock = new MutableClock();
        try (DynamoDbTestServer own =
                        DynamoDbTestServer.builder().clock(clock).build().start();
                DynamoDbClient ownClient = newClient(own)) {
            ownClient.createTable(r -> r.tableName("txn")
                    .billingMode("PAY_PER_REQUEST")
                    .attributeDefinitions(a -> a.attributeName("pk").attributeType("S"))
                    .keySchema(k -> k.attributeName("pk").keyType("HASH")));
            TransactWriteItem add = TransactWriteItem.builder()
                    .update(u -> u.tableName("txn")
                            .key(key("ctr"))
                            .updateExpression("ADD n :one")
                            .expressionAttributeValues(Map.of(":one", n("1"))))
                    .build();
            ownClient.transactWriteItems(r -> r.clientRequestToken("tok").transactItems(add));
            clock.advance(Duration.ofMinutes(9));
            ownClient.transactWriteItems(r -> r.clientRequestToken("tok").transactItems(add));
            assertThat(ownClient
                            .getItem(r -> r.tableName("txn").key(key("ctr")))
                            .item()
                            .get("n")
                            .n())
                    .isEqualTo("1");
            clock.advance(Duration.ofMinutes(2));
            ownClient.transactWriteItems(r -> r.clientRequestToken("tok").transactItems(add));
            assertThat(ownClient
                            .getItem(r -> r.tableName("txn").key(key("ctr")))
                            .item()
                            .get("n")
                            .n())
                    .isEqualTo("2");
        }
    }

    @Test
    void clientRequestToken_ofACanceledTransaction_isNotRemembered() {
        client.putItem(r -> r.tableName("txn").item(Map.of("pk", s("guard"), "v", s("other"))));
        assertThatThrownBy(() -> client.transactWriteItems(r ->
                        r.clientRequestToken("tok-c").transactItems(checkEquals("guard", "g1"), put("target", "t1"))))
                .isInstanceOf(TransactionCanceledException.class);
        client.putItem(r -> r.tableName("txn").item(Map.of("pk", s("guard"), "v", s("g1"))));
        client.transactWriteItems(
                r -> r.clientRequestToken("tok-c").transactItems(checkEquals("guard", "g1"), put("target", "t1")));
        assertThat(value("target")).isEqualTo("t1");
    }

    @Test
    void clientRequestToken_comparesEverythingButTheToken() {
        client.transactWriteItems(r -> r.clientRequestToken("tok-r").transactItems(put("a", "1")));
        assertThatThrownBy(() -> client.transactWriteItems(r -> r.clientRequestToken("tok-r")
                        .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                        .transactItems(put("a", "1"))))
                .isInstanceOf(IdempotentParameterMismatchException.class);
    }

    @Test
    void clientRequestToken_replayReportsReadUnits() {
        client.transactWriteItems(r -> r.clientRequestToken("tok-u")
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .transactItems(put("a", "1"), put("b", "1")));
        TransactWriteItemsResponse replay = client.transactWriteItems(r -> r.clientRequestToken("tok-u")
                .returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                .transactItems(put("a", "1"), put("b", "1")));
        assertThat(replay.consumedCapacity().get(0).readCapacityUnits()).isEqualTo(2.0);
        assertThat(replay.consumedCapacity().get(0).writeCapacityUnits()).isNull();
    }

    @Test
    void clientRequestToken_of37Characters_isRejected() {
        assertThatThrownBy(() -> client.transactWriteItems(
                        r -> r.clientRequestToken("x".repeat(37)).transactItems(put("a", "1"))))
                .hasMessageContaining("clientRequestToken");
    }

    @Test
    void consumedCapacity_isTwiceTheWriteUnitsPerItem() {
        TransactWriteItemsResponse response =
                client.transactWriteItems(r -> r.returnConsumedCapacity(ReturnConsumedCapacity.TOTAL)
                        .transactItems(put("a", "x".repeat(1500)), put("b", "1")));
        ConsumedCapacity c = response.consumedCapacity().get(0);
        assertThat(c.tableName()).isEqualTo("txn");
        assertThat(c.capacityUnits()).isEqualTo(6.0); // 2 x 2 units + 2 x 1 unit
        assertThat(c.writeCapacityUnits()).isEqualTo(6.0);
    }

    @Test
    void retryWhileTheFirstAttemptIsStillRunning_isTransactionInProgress() throws Exception {
        java.util.concurrent.CountDownLatch reached = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        server.hooks(point -> {
            reached.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newSingleThreadExecutor();
        try (DynamoDbClient noRetry = newNoRetryClient(server)) {
            java.util.concurrent.Future<?> first = pool.submit(() ->
                    client.transactWriteItems(r -> r.clientRequestToken("busy").transactItems(put("a", "1"))));
            reached.await();
            assertThatThrownBy(() -> noRetry.transactWriteItems(
                            r -> r.clientRequestToken("busy").transactItems(put("a", "1"))))
                    .isInstanceOfSatisfying(
                            software.amazon.awssdk.services.dynamodb.model.TransactionInProgressException.class,
                            e -> assertThat(e.awsErrorDetails().errorMessage())
                                    .isEqualTo("Transaction from previous request is still in progress"));
            release.countDown();
            first.get();
            assertThat(value("a")).isEqualTo("1");
        } finally {
            release.countDown();
            pool.shutdownNow();
        }
    }

    @Test
    void conditionCheckWithoutCondition_isRejectedNamingIt() {
        assertThatThrownBy(() -> client.transactWriteItems(r -> r.transactItems(TransactWriteItem.builder()
                        .conditionCheck(c -> c.tableName("txn").key(key("a")))
                        .build())))
                .isExactlyInstanceOf(DynamoDbException.class)
                .hasMessageContaining("conditionExpression");
    }

    @Test
    void twoKindsInOneElement_isRejected() {
        assertThatThrownBy(() -> client.transactWriteItems(r -> r.transactItems(TransactWriteItem.builder()
                        .put(p -> p.tableName("txn").item(key("a")))
                        .delete(d -> d.tableName("txn").key(key("a")))
                        .build())))
                .hasMessageStartingWith("TransactItems can only contain one of Check, Put, Update or Delete");
    }

    /** A clock tests move by hand. */
    static final class MutableClock extends Clock {
        private volatile Instant now = Instant.parse("2026-01-01T00:00:00Z");

        void advance(Duration d) {
            now = now.plus(d);
        }

        @Override
        public java.time.ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}
