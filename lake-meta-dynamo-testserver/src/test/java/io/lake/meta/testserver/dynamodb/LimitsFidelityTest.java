package io.lake.meta.testserver.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;

/**
 * The limits of reference §5.2 and §9 on names and expressions: attribute names 1..65535 bytes,
 * placeholders at most 255 bytes, at most 300 operators or functions in an update expression. The
 * limits are DynamoDB's; the message texts are this emulator's (DynamoDB's are not known).
 */
class LimitsFidelityTest extends ServerTestSupport {

    @BeforeEach
    void table() {
        createTable("limits", null);
    }

    private static DynamoDbException validationError(Executable call) {
        DynamoDbException e = catchThrowableOfType(DynamoDbException.class, () -> {
            try {
                call.execute();
            } catch (Throwable t) {
                throw t instanceof Exception ex ? ex : new RuntimeException(t);
            }
        });
        assertThat(e).as("a ValidationException").isNotNull();
        assertThat(e.awsErrorDetails().errorCode()).isEqualTo("ValidationException");
        assertThat(e.statusCode()).isEqualTo(400);
        return e;
    }

    private static Map<String, AttributeValue> stored(String pk) {
        return client.getItem(r -> r.tableName("limits").key(key(pk)).consistentRead(true))
                .item();
    }

    @Test
    void attributeName_upTo65535Bytes_isAccepted_65536IsRejected() {
        String ascii = "a".repeat(65535);
        String multiByte = "\u20ac".repeat(21845); // 3 UTF-8 bytes each: 65 535 bytes in 21 845 characters

        client.putItem(r -> r.tableName("limits").item(Map.of("pk", s("ascii"), ascii, n("1"))));
        client.putItem(r -> r.tableName("limits").item(Map.of("pk", s("euro"), multiByte, n("2"))));
        DynamoDbException tooLong = validationError(() ->
                client.putItem(r -> r.tableName("limits").item(Map.of("pk", s("x"), ascii + "b", n("1")))));
        DynamoDbException tooLongInBytes = validationError(() ->
                client.putItem(r -> r.tableName("limits").item(Map.of("pk", s("x"), multiByte + "b", n("1")))));

        assertThat(stored("ascii")).containsEntry(ascii, n("1"));
        assertThat(stored("euro")).containsEntry(multiByte, n("2"));
        assertThat(tooLong.awsErrorDetails().errorMessage())
                .isEqualTo("One or more parameter values were invalid: "
                        + "Attribute name is too large, it must be at most 65535 bytes; attribute name size: 65536");
        assertThat(tooLongInBytes.awsErrorDetails().errorMessage()).endsWith("attribute name size: 65536");
        assertThat(stored("x")).isEmpty();
    }

    @Test
    void emptyAttributeName_isRejected() {
        DynamoDbException e = validationError(() ->
                client.putItem(r -> r.tableName("limits").item(Map.of("pk", s("x"), "", n("1")))));

        assertThat(e.awsErrorDetails().errorMessage())
                .isEqualTo("One or more parameter values were invalid: Empty attribute name");
    }

    @Test
    void attributeNameThroughAPlaceholder_isLimitedTheSameWay() {
        String longest = "n".repeat(65535);
        client.updateItem(r -> r.tableName("limits")
                .key(key("a"))
                .updateExpression("SET #name = :v")
                .expressionAttributeNames(Map.of("#name", longest))
                .expressionAttributeValues(Map.of(":v", n("3"))));
        Map<String, AttributeValue> projected = client.getItem(r -> r.tableName("limits")
                        .key(key("a"))
                        .projectionExpression("#name")
                        .expressionAttributeNames(Map.of("#name", longest)))
                .item();

        DynamoDbException update = validationError(() -> client.updateItem(r -> r.tableName("limits")
                .key(key("a"))
                .updateExpression("SET #name = :v")
                .expressionAttributeNames(Map.of("#name", longest + "n"))
                .expressionAttributeValues(Map.of(":v", n("4")))));
        DynamoDbException get = validationError(() -> client.getItem(r -> r.tableName("limits")
                .key(key("a"))
                .projectionExpression("#name")
                .expressionAttributeNames(Map.of("#name", longest + "n"))));
        DynamoDbException empty = validationError(() -> client.getItem(r -> r.tableName("limits")
                .key(key("a"))
                .projectionExpression("#name")
                .expressionAttributeNames(Map.of("#name", ""))));

        assertThat(projected).isEqualTo(Map.of(longest, n("3")));
        assertThat(update.awsErrorDetails().errorMessage())
                .isEqualTo(
                        "ExpressionAttributeNames contains invalid value: "
                                + "Attribute name is too large, it must be at most 65535 bytes; attribute name size: 65536 for key #name");
        assertThat(get.awsErrorDetails().errorMessage())
                .isEqualTo(update.awsErrorDetails().errorMessage());
        assertThat(empty.awsErrorDetails().errorMessage())
                .isEqualTo("ExpressionAttributeNames contains invalid value: Empty attribute name for key #name");
        assertThat(stored("a")).containsEntry(longest, n("3"));
    }

    @Test
    void placeholders_upTo255Bytes_areAccepted_256AreRejected() {
        String name255 = "#" + "n".repeat(254);
        String value255 = ":" + "v".repeat(254);
        client.updateItem(r -> r.tableName("limits")
                .key(key("a"))
                .updateExpression("SET " + name255 + " = " + value255)
                .expressionAttributeNames(Map.of(name255, "attr"))
                .expressionAttributeValues(Map.of(value255, n("1"))));

        DynamoDbException longName = validationError(() -> client.updateItem(r -> r.tableName("limits")
                .key(key("a"))
                .updateExpression("SET " + name255 + "n = :v")
                .expressionAttributeNames(Map.of(name255 + "n", "attr"))
                .expressionAttributeValues(Map.of(":v", n("2")))));
        DynamoDbException longValue = validationError(() -> client.updateItem(r -> r.tableName("limits")
                .key(key("a"))
                .updateExpression("SET attr = " + value255 + "v")
                .expressionAttributeValues(Map.of(value255 + "v", n("2")))));

        assertThat(stored("a")).containsEntry("attr", n("1"));
        assertThat(longName.awsErrorDetails().errorMessage())
                .isEqualTo("ExpressionAttributeNames contains invalid key: "
                        + "The key is too long, it must be at most 255 bytes; key size: 256, key: \"" + name255
                        + "n\"");
        assertThat(longValue.awsErrorDetails().errorMessage())
                .startsWith("ExpressionAttributeValues contains invalid key: "
                        + "The key is too long, it must be at most 255 bytes; key size: 256, key: \":vvv");
    }

    /** {@code SET a0 = :v + :v, a1 = :v + :v, ...}: one operator per action. */
    private static String plusActions(int count) {
        StringBuilder expression = new StringBuilder("SET ");
        for (int i = 0; i < count; i++) {
            expression.append(i == 0 ? "" : ",").append('a').append(i).append("=:v+:v");
        }
        return expression.toString();
    }

    @Test
    void updateExpression_upTo300OperatorsAndFunctions_isAccepted_301IsRejected() {
        String threeHundredPluses = plusActions(300);
        String withFunction = plusActions(299) + ",z=if_not_exists(z,:v)";
        String oneTooMany = plusActions(299) + ",z=if_not_exists(z,:v)+:v";

        client.updateItem(r -> r.tableName("limits")
                .key(key("plus"))
                .updateExpression(threeHundredPluses)
                .expressionAttributeValues(Map.of(":v", n("1"))));
        client.updateItem(r -> r.tableName("limits")
                .key(key("function"))
                .updateExpression(withFunction)
                .expressionAttributeValues(Map.of(":v", n("1"))));
        DynamoDbException rejected = validationError(() -> client.updateItem(r -> r.tableName("limits")
                .key(key("rejected"))
                .updateExpression(oneTooMany)
                .expressionAttributeValues(Map.of(":v", n("1")))));

        assertThat(stored("plus")).hasSize(301).containsEntry("a299", n("2"));
        assertThat(stored("function")).hasSize(301).containsEntry("z", n("1"));
        assertThat(rejected.awsErrorDetails().errorMessage())
                .isEqualTo(
                        "Invalid UpdateExpression: The expression"
                                + " contains too many operators or functions; the maximum is 300, operators and functions: 301");
        assertThat(stored("rejected")).isEmpty();
    }
}
