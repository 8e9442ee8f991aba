package io.lake.meta.testserver.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemResponse;

class UpdateItemFidelityTest extends ServerTestSupport {

    @BeforeEach
    void table() {
        createTable("upd", null);
    }

    private static UpdateItemResponse update(String expression, Map<String, AttributeValue> values, ReturnValue rv) {
        return client.updateItem(r -> r.tableName("upd")
                .key(key("a"))
                .updateExpression(expression)
                .expressionAttributeValues(values.isEmpty() ? null : values)
                .returnValues(rv));
    }

    private static Map<String, AttributeValue> item() {
        return client.getItem(r -> r.tableName("upd").key(key("a"))).item();
    }

    @Test
    void set_upsertsAndArithmeticWorks() {
        UpdateItemResponse created =
                update("SET n = :one, s = :s", Map.of(":one", n("1"), ":s", s("x")), ReturnValue.ALL_NEW);
        assertThat(created.attributes()).isEqualTo(Map.of("pk", s("a"), "n", n("1"), "s", s("x")));
        update("SET n = n + :two", Map.of(":two", n("2")), ReturnValue.NONE);
        update("SET m = n - :half", Map.of(":half", n("0.5")), ReturnValue.NONE);
        assertThat(item().get("n").n()).isEqualTo("3");
        assertThat(item().get("m").n()).isEqualTo("2.5");
    }

    @Test
    void ifNotExistsAndListAppend() {
        update("SET c = if_not_exists(c, :zero) + :one", Map.of(":zero", n("0"), ":one", n("1")), ReturnValue.NONE);
        update("SET c = if_not_exists(c, :zero) + :one", Map.of(":zero", n("0"), ":one", n("1")), ReturnValue.NONE);
        assertThat(item().get("c").n()).isEqualTo("2");
        update(
                "SET l = list_append(if_not_exists(l, :empty), :x)",
                Map.of(
                        ":empty",
                        AttributeValue.builder().l(java.util.List.of()).build(),
                        ":x",
                        AttributeValue.builder().l(s("x")).build()),
                ReturnValue.NONE);
        update(
                "SET l = list_append(:y, l)",
                Map.of(":y", AttributeValue.builder().l(s("y")).build()),
                ReturnValue.NONE);
        assertThat(item().get("l").l()).containsExactly(s("y"), s("x"));
    }

    @Test
    void removeAddDelete() {
        update(
                "SET a1 = :v, nested = :m ADD tags :t, cnt :one",
                Map.of(
                        ":v",
                        s("1"),
                        ":m",
                        AttributeValue.builder()
                                .m(Map.of("x", s("1"), "y", s("2")))
                                .build(),
                        ":t",
                        AttributeValue.builder().ss("a", "b").build(),
                        ":one",
                        n("1")),
                ReturnValue.NONE);
        update(
                "REMOVE a1, nested.x DELETE tags :a ADD cnt :one",
                Map.of(":a", AttributeValue.builder().ss("a").build(), ":one", n("1")),
                ReturnValue.NONE);
        Map<String, AttributeValue> item = item();
        assertThat(item).doesNotContainKey("a1");
        assertThat(item.get("nested").m()).containsOnlyKeys("y");
        assertThat(item.get("tags").ss()).containsExactly("b");
        assertThat(item.get("cnt").n()).isEqualTo("2");
    }

    @Test
    void returnValues_updatedOldAndNew() {
        update("SET x = :a, y = :b", Map.of(":a", s("1"), ":b", s("2")), ReturnValue.NONE);
        assertThat(update("SET x = :c", Map.of(":c", s("3")), ReturnValue.UPDATED_OLD)
                        .attributes())
                .isEqualTo(Map.of("x", s("1")));
        assertThat(update("SET x = :c", Map.of(":c", s("4")), ReturnValue.UPDATED_NEW)
                        .attributes())
                .isEqualTo(Map.of("x", s("4")));
        assertThat(update("SET x = :c", Map.of(":c", s("5")), ReturnValue.ALL_OLD)
                        .attributes())
                .isEqualTo(Map.of("pk", s("a"), "x", s("4"), "y", s("2")));
    }

    @Test
    void errors_useRealMessages() {
        assertThatThrownBy(() -> update("SET pk = :v", Map.of(":v", s("b")), ReturnValue.NONE))
                .hasMessageStartingWith("One or more parameter values were invalid: Cannot update attribute pk. This "
                        + "attribute is part of the key");
        assertThatThrownBy(() -> update("SET x = nothing + :one", Map.of(":one", n("1")), ReturnValue.NONE))
                .hasMessageStartingWith(
                        "The provided expression refers to an attribute that does not exist in the item");
        update("SET s = :s", Map.of(":s", s("str")), ReturnValue.NONE);
        assertThatThrownBy(() -> update("SET s = s + :one", Map.of(":one", n("1")), ReturnValue.NONE))
                .hasMessageStartingWith("An operand in the update expression has an incorrect data type");
        assertThatThrownBy(() -> update("SET x = :a REMOVE x", Map.of(":a", s("1")), ReturnValue.NONE))
                .hasMessageStartingWith("Invalid UpdateExpression: Two document paths conflict with each other");
        assertThatThrownBy(() -> update("SET x = :a, x.y = :a", Map.of(":a", s("1")), ReturnValue.NONE))
                .hasMessageStartingWith(
                        "Invalid UpdateExpression: Two document paths overlap with each other; must remove "
                                + "or rewrite one of these paths; path one: [x], path two: [x, y]");
        assertThatThrownBy(() -> update("SET x = :a SET y = :a", Map.of(":a", s("1")), ReturnValue.NONE))
                .hasMessageContaining("The \"SET\" section can only be used once in an update expression;");
        assertThatThrownBy(() -> update("INVALID SYNTAX", Map.of(), ReturnValue.NONE))
                .hasMessageStartingWith(
                        "Invalid UpdateExpression: Syntax error; token: \"INVALID\", near: \"INVALID SYNTAX\"");
        assertThatThrownBy(() -> update("SET x = :undefined", Map.of(":a", s("1")), ReturnValue.NONE))
                .hasMessageStartingWith("Invalid UpdateExpression: An expression attribute value used in expression is "
                        + "not defined; attribute value: :undefined");
        assertThatThrownBy(() -> update("SET x.y = :a", Map.of(":a", s("1")), ReturnValue.NONE))
                .hasMessageStartingWith("The document path provided in the update expression is invalid for update");
    }

    @Test
    void condition_failsWithoutApplying() {
        update("SET v = :one", Map.of(":one", n("1")), ReturnValue.NONE);
        assertThatThrownBy(() -> client.updateItem(r -> r.tableName("upd")
                        .key(key("a"))
                        .updateExpression("SET v = :two")
                        .conditionExpression("v = :zero")
                        .expressionAttributeValues(Map.of(":two", n("2"), ":zero", n("0")))))
                .isInstanceOf(ConditionalCheckFailedException.class);
        assertThat(item().get("v").n()).isEqualTo("1");
    }

    @Test
    void growingPast400Kilobytes_isRejected() {
        update("SET big = :b", Map.of(":b", s("x".repeat(300_000))), ReturnValue.NONE);
        assertThatThrownBy(() -> update("SET big2 = :b", Map.of(":b", s("x".repeat(200_000))), ReturnValue.NONE))
                .hasMessageStartingWith("Item size to update has exceeded the maximum allowed size");
    }
}
