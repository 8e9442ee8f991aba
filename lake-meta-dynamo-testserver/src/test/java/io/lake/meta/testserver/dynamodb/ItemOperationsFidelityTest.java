package io.lake.meta.testserver.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.PutItemResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

class ItemOperationsFidelityTest extends ServerTestSupport {

    @BeforeEach
    void table() {
        createTable("items", null);
    }

    private static Map<String, AttributeValue> item(String pk, String value) {
        return Map.of("pk", s(pk), "v", s(value));
    }

    @Test
    void getItem_missing_hasNoItemMember() {
        GetItemResponse response =
                client.getItem(r -> r.tableName("items").key(key("a")).consistentRead(true));
        assertThat(response.hasItem()).isFalse();
    }

    @Test
    void putThenGet_roundTripsEveryType() {
        Map<String, AttributeValue> item = new HashMap<>();
        item.put("pk", s("a"));
        item.put("s", s(""));
        item.put("n", n("42"));
        item.put("b", b((byte) 0xff, (byte) 0));
        item.put("t", AttributeValue.builder().bool(true).build());
        item.put("z", AttributeValue.builder().nul(true).build());
        item.put("m", AttributeValue.builder().m(Map.of("x", s("y"))).build());
        item.put("l", AttributeValue.builder().l(s("e"), n("1")).build());
        item.put("ss", AttributeValue.builder().ss("a", "b").build());
        item.put("ns", AttributeValue.builder().ns("1", "2").build());
        item.put(
                "bs",
                AttributeValue.builder()
                        .bs(SdkBytes.fromByteArray(new byte[] {1}))
                        .build());
        client.putItem(r -> r.tableName("items").item(item));
        assertThat(client.getItem(r -> r.tableName("items").key(key("a"))).item())
                .isEqualTo(item);
    }

    @Test
    void numbers_areStoredNormalised() {
        client.putItem(r ->
                r.tableName("items").item(Map.of("pk", s("a"), "x", n("00042.500"), "y", n("1.5E2"), "z", n("-0"))));
        Map<String, AttributeValue> got =
                client.getItem(r -> r.tableName("items").key(key("a"))).item();
        assertThat(got.get("x").n()).isEqualTo("42.5");
        assertThat(got.get("y").n()).isEqualTo("150");
        assertThat(got.get("z").n()).isEqualTo("0");
    }

    @Test
    void numbers_withTooManyDigits_areRejected() {
        assertThatThrownBy(() -> client.putItem(r -> r.tableName("items")
                        .item(Map.of("pk", s("a"), "x", n("123456789012345678901234567890123456789")))))
                .isInstanceOf(DynamoDbException.class)
                .hasMessageStartingWith("Attempting to store more than 38 significant digits in a Number");
        assertThatThrownBy(() -> client.putItem(r -> r.tableName("items").item(Map.of("pk", s("a"), "x", n("1E126")))))
                .hasMessageStartingWith(
                        "Number overflow. Attempting to store a number with magnitude larger than supported range");
        assertThatThrownBy(() -> client.putItem(r -> r.tableName("items").item(Map.of("pk", s("a"), "x", n("abc")))))
                .hasMessageStartingWith("The parameter cannot be converted to a numeric value: abc");
    }

    @Test
    void putItem_conditionFails_withAllOldReturnsExistingItemInError() {
        client.putItem(r -> r.tableName("items").item(item("a", "old")));
        assertThatThrownBy(() -> client.putItem(r -> r.tableName("items")
                        .item(item("a", "new"))
                        .conditionExpression("attribute_not_exists(pk)")
                        .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)))
                .isInstanceOfSatisfying(ConditionalCheckFailedException.class, e -> {
                    assertThat(e.awsErrorDetails().errorMessage()).isEqualTo("The conditional request failed");
                    assertThat(e.statusCode()).isEqualTo(400);
                    assertThat(e.item()).isEqualTo(item("a", "old"));
                });
        assertThat(client.getItem(r -> r.tableName("items").key(key("a")))
                        .item()
                        .get("v")
                        .s())
                .isEqualTo("old");
    }

    @Test
    void conditionFailure_withoutAllOld_hasNoItem() {
        client.putItem(r -> r.tableName("items").item(item("a", "old")));
        assertThatThrownBy(() -> client.putItem(r ->
                        r.tableName("items").item(item("a", "new")).conditionExpression("attribute_not_exists(pk)")))
                .isInstanceOfSatisfying(
                        ConditionalCheckFailedException.class,
                        e -> assertThat(e.hasItem()).isFalse());
    }

    @Test
    void conditionFailure_onMissingItemWithAllOld_hasNoItem() {
        assertThatThrownBy(() -> client.deleteItem(r -> r.tableName("items")
                        .key(key("a"))
                        .conditionExpression("attribute_exists(pk)")
                        .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)))
                .isInstanceOfSatisfying(
                        ConditionalCheckFailedException.class,
                        e -> assertThat(e.hasItem()).isFalse());
    }

    @Test
    void putItem_returnValuesAllOld_returnsReplacedItemOnly() {
        PutItemResponse first =
                client.putItem(r -> r.tableName("items").item(item("a", "1")).returnValues(ReturnValue.ALL_OLD));
        assertThat(first.hasAttributes()).isFalse();
        PutItemResponse second =
                client.putItem(r -> r.tableName("items").item(item("a", "2")).returnValues(ReturnValue.ALL_OLD));
        assertThat(second.attributes()).isEqualTo(item("a", "1"));
    }

    @Test
    void putItem_returnValuesAllNew_isRejected() {
        assertThatThrownBy(() -> client.putItem(
                        r -> r.tableName("items").item(item("a", "1")).returnValues(ReturnValue.ALL_NEW)))
                .isInstanceOf(DynamoDbException.class)
                .hasMessageStartingWith("ReturnValues can only be ALL_OLD or NONE");
    }

    @Test
    void deleteItem_exactBytesCompareAndDelete() {
        client.putItem(r -> r.tableName("items").item(item("a", "1")));
        assertThatThrownBy(() -> client.deleteItem(r -> r.tableName("items")
                        .key(key("a"))
                        .conditionExpression("v = :v")
                        .expressionAttributeValues(Map.of(":v", s("2")))))
                .isInstanceOf(ConditionalCheckFailedException.class);
        DeleteItemResponse deleted = client.deleteItem(r -> r.tableName("items")
                .key(key("a"))
                .conditionExpression("v = :v")
                .expressionAttributeValues(Map.of(":v", s("1")))
                .returnValues(ReturnValue.ALL_OLD));
        assertThat(deleted.attributes()).isEqualTo(item("a", "1"));
        assertThat(client.getItem(r -> r.tableName("items").key(key("a"))).hasItem())
                .isFalse();
    }

    @Test
    void deleteItem_missing_succeedsWithEmptyAnswer() {
        DeleteItemResponse response =
                client.deleteItem(r -> r.tableName("items").key(key("nothing")));
        assertThat(response.hasAttributes()).isFalse();
    }

    @Test
    void key_wrongShape_doesNotMatchSchema() {
        assertThatThrownBy(() -> client.getItem(r -> r.tableName("items").key(Map.of("pk", n("1")))))
                .hasMessageStartingWith("The provided key element does not match the schema");
        assertThatThrownBy(() -> client.getItem(r -> r.tableName("items").key(Map.of("pk", s("a"), "x", s("b")))))
                .hasMessageStartingWith("The provided key element does not match the schema");
    }

    @Test
    void putItem_missingOrMistypedKey_isNamed() {
        assertThatThrownBy(() -> client.putItem(r -> r.tableName("items").item(Map.of("v", s("1")))))
                .hasMessageStartingWith("One or more parameter values were invalid: Missing the key pk in the item");
        assertThatThrownBy(() -> client.putItem(r -> r.tableName("items").item(Map.of("pk", n("1")))))
                .hasMessageStartingWith(
                        "One or more parameter values were invalid: Type mismatch for key pk expected: S actual: N");
    }

    @Test
    void emptyStringKey_isRejected() {
        assertThatThrownBy(() -> client.putItem(r -> r.tableName("items").item(Map.of("pk", s("")))))
                .hasMessageStartingWith(
                        "One or more parameter values are not valid. The AttributeValue for a key attribute "
                                + "cannot contain an empty string value. Key: pk");
    }

    @Test
    void hashKeyOver2048Bytes_isRejectedWithRealMessage() {
        String fits = "\uD83D\uDE00".repeat(512); // 2048 UTF-8 bytes
        client.putItem(r -> r.tableName("items").item(Map.of("pk", s(fits))));
        assertThatThrownBy(() -> client.putItem(r -> r.tableName("items").item(Map.of("pk", s(fits + "x")))))
                .hasMessageStartingWith("One or more parameter values were invalid: Size of hashkey has exceeded the "
                        + "maximum size limit of2048 bytes");
    }

    @Test
    void rangeKeyOver1024Bytes_isRejectedWithRealMessage() {
        createTable("ranged", ScalarAttributeType.S);
        client.putItem(r -> r.tableName("ranged").item(Map.of("pk", s("a"), "sk", s("x".repeat(1024)))));
        assertThatThrownBy(() -> client.putItem(r ->
                        r.tableName("ranged").item(Map.of("pk", s("a"), "sk", s("x".repeat(1025))))))
                .hasMessageStartingWith(
                        "One or more parameter values were invalid: Aggregated size of all range keys has "
                                + "exceeded the size limit of 1024 bytes");
    }

    @Test
    void itemOf409600Bytes_isAcceptedAnd409601Rejected() {
        // size = name bytes + value bytes: "pk"(2) + "a"(1) + "v"(1) + value
        String exact = "x".repeat(409_600 - 4);
        client.putItem(r -> r.tableName("items").item(Map.of("pk", s("a"), "v", s(exact))));
        assertThatThrownBy(() ->
                        client.putItem(r -> r.tableName("items").item(Map.of("pk", s("a"), "v", s(exact + "x")))))
                .isInstanceOf(DynamoDbException.class)
                .hasMessageStartingWith("Item size has exceeded the maximum allowed size");
    }

    @Test
    void attributeValue_malformed_isRejectedWithRealMessages() {
        assertThatThrownBy(() -> client.putItem(r -> r.tableName("items")
                        .item(Map.of("pk", s("a"), "x", AttributeValue.builder().build()))))
                .hasMessageStartingWith(
                        "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes");
        assertThatThrownBy(() -> client.putItem(r -> r.tableName("items")
                        .item(Map.of(
                                "pk",
                                s("a"),
                                "x",
                                AttributeValue.builder().s("a").n("1").build()))))
                .hasMessageStartingWith(
                        "Supplied AttributeValue has more than one datatypes set, must contain exactly one "
                                + "of the supported datatypes");
        assertThatThrownBy(() -> client.putItem(r -> r.tableName("items")
                        .item(Map.of(
                                "pk",
                                s("a"),
                                "x",
                                AttributeValue.builder().ss(List.of()).build()))))
                .hasMessageStartingWith("One or more parameter values were invalid: An string set  may not be empty");
        assertThatThrownBy(() -> client.putItem(r -> r.tableName("items")
                        .item(Map.of(
                                "pk",
                                s("a"),
                                "x",
                                AttributeValue.builder().ss("a", "a").build()))))
                .hasMessageStartingWith(
                        "One or more parameter values were invalid: Input collection [a, a] contains duplicates.");
        assertThatThrownBy(() -> client.putItem(r -> r.tableName("items")
                        .item(Map.of(
                                "pk",
                                s("a"),
                                "x",
                                AttributeValue.builder().nul(false).build()))))
                .hasMessageStartingWith(
                        "One or more parameter values were invalid: Null attribute value types must have the value of true");
    }

    private static AttributeValue nestedMaps(int levels) {
        AttributeValue v = s("leaf");
        for (int i = 0; i < levels; i++) {
            v = AttributeValue.builder().m(Map.of("m", v)).build();
        }
        return v;
    }

    @Test
    void nesting_thirtyTwoLevelsAcceptedFiftyRejected() {
        AttributeValue ok = nestedMaps(31);
        client.putItem(r -> r.tableName("items").item(Map.of("pk", s("a"), "doc", ok)));
        AttributeValue deep = nestedMaps(50);
        assertThatThrownBy(() -> client.putItem(r -> r.tableName("items").item(Map.of("pk", s("a"), "doc", deep))))
                .isInstanceOf(DynamoDbException.class)
                .hasMessageContaining("Nesting");
    }

    @Test
    void projection_overlappingPaths_areRejected() {
        assertThatThrownBy(() ->
                        client.getItem(r -> r.tableName("items").key(key("a")).projectionExpression("v, v.x")))
                .hasMessageStartingWith(
                        "Invalid ProjectionExpression: Two document paths overlap with each other; must "
                                + "remove or rewrite one of these paths; path one: [v], path two: [v, x]");
        assertThatThrownBy(() ->
                        client.getItem(r -> r.tableName("items").key(key("a")).projectionExpression("!!")))
                .hasMessageStartingWith("Invalid ProjectionExpression: Syntax error; token: \"!\", near: \"!!\"");
    }

    @Test
    void projection_onExistingItemWithNoMatchingPath_isEmptyItem() {
        client.putItem(r -> r.tableName("items").item(item("a", "1")));
        GetItemResponse response =
                client.getItem(r -> r.tableName("items").key(key("a")).projectionExpression("nothere"));
        assertThat(response.hasItem()).isTrue();
        assertThat(response.item()).isEmpty();
    }

    @Test
    void badEnumValue_listsTheAllowedValues() {
        assertThatThrownBy(() -> client.putItem(r -> r.tableName("items")
                        .item(item("a", "1"))
                        .conditionExpression("attribute_not_exists(pk)")
                        .returnValuesOnConditionCheckFailure("ALL_NEW")))
                .hasMessageStartingWith(
                        "1 validation error detected: Value 'ALL_NEW' at 'returnValuesOnConditionCheckFailure' "
                                + "failed to satisfy constraint: Member must satisfy enum value set: [ALL_OLD, NONE]");
    }

    @Test
    void legacyParameters_areRejectedByName() {
        assertThatThrownBy(() ->
                        client.getItem(r -> r.tableName("items").key(key("a")).attributesToGet("v")))
                .hasMessageContaining(
                        "Unsupported by the lake-meta DynamoDB test server: legacy parameter AttributesToGet of GetItem");
    }
}
