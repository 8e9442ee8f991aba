package io.lake.meta.testserver.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * The 32-level nesting limit on every surface that writes or compares a document, with DynamoDB's
 * texts: a value of 31 wrapping maps (its leaf at level 32) is the deepest accepted.
 */
@SuppressWarnings("unchecked") // the SDK's builder methods take generic varargs
class NestingFidelityTest extends ServerTestSupport {

    private static final String TOO_DEEP = "Nesting Levels have exceeded supported limits: Attributes in the item "
            + "have nested levels beyond supported limit";

    @BeforeEach
    void table() {
        createTable("nest", null);
    }

    /** A string leaf wrapped in {@code wraps} single-entry maps. */
    private static AttributeValue wrapped(int wraps) {
        AttributeValue v = s("leaf");
        for (int i = 0; i < wraps; i++) {
            v = AttributeValue.builder().m(Map.of("n", v)).build();
        }
        return v;
    }

    private static boolean stored(String pk) {
        return client.getItem(r -> r.tableName("nest").key(key(pk)).consistentRead(true))
                .hasItem();
    }

    private static TransactWriteItem setDeep(String pk, AttributeValue value) {
        return TransactWriteItem.builder()
                .update(u -> u.tableName("nest")
                        .key(key(pk))
                        .updateExpression("SET deep = :deep")
                        .expressionAttributeValues(Map.of(":deep", value)))
                .build();
    }

    @Test
    void putItem_tooDeepItem_isRefusedInTheValidationEnvelope() {
        client.putItem(r -> r.tableName("nest").item(Map.of("pk", s("ok"), "doc", wrapped(31))));
        assertThatThrownBy(() ->
                        client.putItem(r -> r.tableName("nest").item(Map.of("pk", s("deep"), "doc", wrapped(32)))))
                .isInstanceOfSatisfying(DynamoDbException.class, e -> {
                    assertThat(e.awsErrorDetails().errorCode()).isEqualTo("ValidationException");
                    assertThat(e.awsErrorDetails().errorMessage())
                            .isEqualTo("1 validation error detected: " + TOO_DEEP);
                });
        assertThat(stored("deep")).isFalse();
    }

    @Test
    void batchWriteItem_tooDeepItem_isRefusedWithTheBareSentence() {
        WriteRequest deep = WriteRequest.builder()
                .putRequest(PutRequest.builder()
                        .item(Map.of("pk", s("deep"), "doc", wrapped(32)))
                        .build())
                .build();
        assertThatThrownBy(() -> client.batchWriteItem(r -> r.requestItems(Map.of("nest", List.of(deep)))))
                .isInstanceOfSatisfying(
                        DynamoDbException.class,
                        e -> assertThat(e.awsErrorDetails().errorMessage()).isEqualTo(TOO_DEEP));
        assertThat(stored("deep")).isFalse();
    }

    @Test
    void updateItem_writingATooDeepValue_isRefusedAndChangesNothing() {
        client.putItem(r -> r.tableName("nest").item(Map.of("pk", s("u"), "v", s("before"))));
        assertThatThrownBy(() -> client.updateItem(r -> r.tableName("nest")
                        .key(key("u"))
                        .updateExpression("SET deep = :deep, v = :v")
                        .expressionAttributeValues(Map.of(":deep", wrapped(32), ":v", s("after")))))
                .isInstanceOfSatisfying(DynamoDbException.class, e -> {
                    assertThat(e.awsErrorDetails().errorCode()).isEqualTo("ValidationException");
                    assertThat(e.awsErrorDetails().errorMessage())
                            .isEqualTo("1 validation error detected: " + TOO_DEEP);
                });
        assertThat(client.getItem(r -> r.tableName("nest").key(key("u")).consistentRead(true))
                        .item())
                .isEqualTo(Map.of("pk", s("u"), "v", s("before")));
    }

    @Test
    void updateItem_deepeningAStoredDocumentPastTheLimit_isRefused() {
        client.putItem(r -> r.tableName("nest").item(Map.of("pk", s("u"), "doc", wrapped(31))));
        StringBuilder path = new StringBuilder("doc");
        for (int i = 0; i < 31; i++) {
            path.append(".n");
        }
        // doc.n...n (31 steps) is the leaf at level 32; a map there puts a leaf at level 33
        String deepest = path.toString();
        assertThatThrownBy(() -> client.updateItem(r -> r.tableName("nest")
                        .key(key("u"))
                        .updateExpression("SET " + deepest + " = :m")
                        .expressionAttributeValues(Map.of(":m", wrapped(1)))))
                .isInstanceOfSatisfying(
                        DynamoDbException.class,
                        e -> assertThat(e.awsErrorDetails().errorMessage())
                                .isEqualTo("1 validation error detected: " + TOO_DEEP));
        client.updateItem(r -> r.tableName("nest")
                .key(key("u"))
                .updateExpression("SET " + deepest + " = :s")
                .expressionAttributeValues(Map.of(":s", s("still level 32"))));
    }

    @Test
    void transactWriteItems_updateWritingATooDeepValue_cancelsWithAValidationErrorReason() {
        assertThatThrownBy(() -> client.transactWriteItems(r -> r.transactItems(
                        TransactWriteItem.builder()
                                .put(p -> p.tableName("nest").item(Map.of("pk", s("first"))))
                                .build(),
                        setDeep("second", wrapped(32)))))
                .isInstanceOfSatisfying(TransactionCanceledException.class, e -> {
                    assertThat(e.awsErrorDetails().errorMessage())
                            .isEqualTo("Transaction cancelled, please refer "
                                    + "cancellation reasons for specific reasons [None, ValidationError]");
                    assertThat(e.cancellationReasons())
                            .extracting(CancellationReason::code)
                            .containsExactly("None", "ValidationError");
                    assertThat(e.cancellationReasons().get(1).message())
                            .isEqualTo("Nesting Levels have exceeded supported limits");
                });
        assertThat(stored("first")).isFalse();
        assertThat(stored("second")).isFalse();
        client.transactWriteItems(r -> r.transactItems(setDeep("second", wrapped(31))));
        assertThat(stored("second")).isTrue();
    }

    @Test
    void transactWriteItems_tooDeepPutItem_isATopLevelValidationException() {
        assertThatThrownBy(() -> client.transactWriteItems(r -> r.transactItems(TransactWriteItem.builder()
                        .put(p -> p.tableName("nest").item(Map.of("pk", s("deep"), "doc", wrapped(32))))
                        .build())))
                .isExactlyInstanceOf(DynamoDbException.class)
                .satisfies(e -> assertThat(
                                ((DynamoDbException) e).awsErrorDetails().errorMessage())
                        .isEqualTo(TOO_DEEP));
        assertThat(stored("deep")).isFalse();
    }

    @Test
    void transactWriteItems_conditionValues_areCheckedOneLevelLaterAndNamed() {
        client.putItem(r -> r.tableName("nest").item(Map.of("pk", s("c"))));
        // a 32-wrap value is not refused: the condition is evaluated (and fails, "doc" being absent)
        assertThatThrownBy(() -> client.transactWriteItems(r -> r.transactItems(TransactWriteItem.builder()
                        .conditionCheck(c -> c.tableName("nest")
                                .key(key("c"))
                                .conditionExpression("doc = :deep")
                                .expressionAttributeValues(Map.of(":deep", wrapped(32))))
                        .build())))
                .isInstanceOfSatisfying(
                        TransactionCanceledException.class,
                        e -> assertThat(e.cancellationReasons())
                                .extracting(CancellationReason::code)
                                .containsExactly("ConditionalCheckFailed"));
        assertThatThrownBy(() -> client.transactWriteItems(r -> r.transactItems(TransactWriteItem.builder()
                        .conditionCheck(c -> c.tableName("nest")
                                .key(key("c"))
                                .conditionExpression("doc = :deep")
                                .expressionAttributeValues(Map.of(":deep", wrapped(33))))
                        .build())))
                .isExactlyInstanceOf(DynamoDbException.class)
                .satisfies(e -> assertThat(
                                ((DynamoDbException) e).awsErrorDetails().errorMessage())
                        .isEqualTo("ExpressionAttributeValues contains invalid value: " + TOO_DEEP + " for key :deep"));
    }
}
