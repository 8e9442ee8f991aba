package io.lake.meta.testserver.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;

/** Condition expressions evaluated through conditional deletes of a fixed item. */
class ExpressionFidelityTest extends ServerTestSupport {

    @BeforeEach
    void item() {
        createTable("expr", null);
        Map<String, AttributeValue> item = new HashMap<>();
        item.put("pk", s("a"));
        item.put("num", n("5"));
        item.put("str", s("hello"));
        item.put("bin", b((byte) 1, (byte) 2, (byte) 3));
        item.put("nul", AttributeValue.builder().nul(true).build());
        item.put(
                "arr",
                AttributeValue.builder()
                        .l(s("x"), n("1"), AttributeValue.builder().l(s("y")).build())
                        .build());
        item.put(
                "doc",
                AttributeValue.builder()
                        .m(Map.of(
                                "inner",
                                s("v"),
                                "deep",
                                AttributeValue.builder().m(Map.of("k", n("7"))).build()))
                        .build());
        item.put("tags", AttributeValue.builder().ss("red", "blue").build());
        item.put("sixS", s("6"));
        client.putItem(r -> r.tableName("expr").item(item));
    }

    /** Whether the condition holds on the item, observed through a conditional update that changes nothing. */
    private static boolean holds(String condition, Map<String, String> names, Map<String, AttributeValue> values) {
        try {
            Map<String, AttributeValue> allValues = new HashMap<>(values);
            allValues.put(":same", s("a"));
            client.updateItem(r -> r.tableName("expr")
                    .key(key("a"))
                    .updateExpression("SET marker = :same")
                    .conditionExpression(condition)
                    .expressionAttributeNames(names.isEmpty() ? null : names)
                    .expressionAttributeValues(allValues));
            return true;
        } catch (ConditionalCheckFailedException e) {
            return false;
        }
    }

    private static boolean holds(String condition, Map<String, AttributeValue> values) {
        return holds(condition, Map.of(), values);
    }

    private static boolean holds(String condition) {
        return holds(condition, Map.of(), Map.of());
    }

    private static String failure(String condition, Map<String, String> names, Map<String, AttributeValue> values) {
        try {
            client.deleteItem(r -> r.tableName("expr")
                    .key(key("zzz"))
                    .conditionExpression(condition)
                    .expressionAttributeNames(names.isEmpty() ? null : names)
                    .expressionAttributeValues(values.isEmpty() ? null : values));
        } catch (DynamoDbException e) {
            assertThat(e.awsErrorDetails().errorCode()).isEqualTo("ValidationException");
            return e.awsErrorDetails().errorMessage();
        }
        throw new AssertionError("expected a ValidationException for " + condition);
    }

    @Test
    void comparators_onNumbersStringsAndBinaries() {
        assertThat(holds("num = :v", Map.of(":v", n("5.0")))).isTrue();
        assertThat(holds("num < :v", Map.of(":v", n("10")))).isTrue();
        assertThat(holds("num >= :v", Map.of(":v", n("6")))).isFalse();
        assertThat(holds("str > :v", Map.of(":v", s("hell")))).isTrue();
        assertThat(holds("bin < :v", Map.of(":v", b((byte) 1, (byte) 2, (byte) 4))))
                .isTrue();
        assertThat(holds("bin < :v", Map.of(":v", b((byte) 0x80)))).isTrue(); // unsigned: 0x01 < 0x80
    }

    @Test
    void differentTypes_neverEqualAndNeverOrdered() {
        assertThat(holds("sixS = :v", Map.of(":v", n("6")))).isFalse();
        assertThat(holds("sixS <> :v", Map.of(":v", n("6")))).isTrue();
        assertThat(holds("sixS < :v", Map.of(":v", n("7")))).isFalse();
        assertThat(holds("sixS > :v", Map.of(":v", n("1")))).isFalse();
    }

    @Test
    void missingAttribute_comparisonsFalseButNotEqualTrue() {
        assertThat(holds("absent = :v", Map.of(":v", n("1")))).isFalse();
        assertThat(holds("absent <> :v", Map.of(":v", n("1")))).isTrue();
        assertThat(holds("absent < :v", Map.of(":v", n("1")))).isFalse();
        assertThat(holds("absent = other_missing")).isFalse();
        assertThat(holds("absent <> other_missing")).isTrue();
    }

    @Test
    void between_in_and_booleanLogic_withPrecedence() {
        assertThat(holds("num BETWEEN :lo AND :hi", Map.of(":lo", n("5"), ":hi", n("9"))))
                .isTrue();
        assertThat(holds("num IN (:a, :b)", Map.of(":a", s("5"), ":b", n("5")))).isTrue();
        assertThat(holds("num in (:a)", Map.of(":a", s("5")))).isFalse();
        // a OR b AND c  ==  a OR (b AND c)
        assertThat(holds(
                        "num = :five OR num = :six AND str = :no",
                        Map.of(":five", n("5"), ":six", n("6"), ":no", s("no"))))
                .isTrue();
        // NOT a AND b  ==  (NOT a) AND b
        assertThat(holds("NOT num = :six AND str = :hello", Map.of(":six", n("6"), ":hello", s("hello"))))
                .isTrue();
        assertThat(holds("not not not not num = :five", Map.of(":five", n("5"))))
                .isTrue();
        // BETWEEN binds its AND before the boolean AND
        assertThat(holds(
                        "num BETWEEN :lo AND :hi AND str = :hello",
                        Map.of(":lo", n("1"), ":hi", n("9"), ":hello", s("hello"))))
                .isTrue();
        assertThat(holds(
                        "(num = :six OR str = :hello) AND (attribute_exists(nul))",
                        Map.of(":six", n("6"), ":hello", s("hello"))))
                .isTrue();
    }

    @Test
    void functions_followDocumentedSemantics() {
        assertThat(holds("attribute_exists(nul)")).isTrue();
        assertThat(holds("attribute_not_exists(absent)")).isTrue();
        assertThat(holds("attribute_exists(doc.deep.k)")).isTrue();
        assertThat(holds("attribute_exists(arr[2][0])")).isTrue();
        assertThat(holds("attribute_exists(arr[3])")).isFalse();
        assertThat(holds("attribute_type(num, :t)", Map.of(":t", s("N")))).isTrue();
        assertThat(holds("attribute_type(tags, :t)", Map.of(":t", s("SS")))).isTrue();
        assertThat(holds("begins_with(str, :p)", Map.of(":p", s("he")))).isTrue();
        assertThat(holds("begins_with(bin, :p)", Map.of(":p", b((byte) 1, (byte) 2))))
                .isTrue();
        assertThat(holds("begins_with(num, :p)", Map.of(":p", s("5")))).isFalse();
        assertThat(holds("contains(str, :p)", Map.of(":p", s("ell")))).isTrue();
        assertThat(holds("contains(tags, :p)", Map.of(":p", s("red")))).isTrue();
        assertThat(holds("contains(tags, :p)", Map.of(":p", s("re")))).isFalse();
        assertThat(holds(
                        "contains(arr, :p)",
                        Map.of(":p", AttributeValue.builder().l(s("y")).build())))
                .isTrue();
        assertThat(holds("size(str) = :n", Map.of(":n", n("5")))).isTrue();
        assertThat(holds("size(tags) = :n", Map.of(":n", n("2")))).isTrue();
        assertThat(holds("size(doc) = :n", Map.of(":n", n("2")))).isTrue();
        assertThat(holds("size(num) = :n", Map.of(":n", n("1")))).isFalse();
        assertThat(holds("size(absent) < :n", Map.of(":n", n("100")))).isFalse();
    }

    @Test
    void placeholders_resolveNamesWithReservedWords() {
        assertThat(holds("#s = :v", Map.of("#s", "str"), Map.of(":v", s("hello"))))
                .isTrue();
        assertThat(holds("#m.#i = :v", Map.of("#m", "doc", "#i", "inner"), Map.of(":v", s("v"))))
                .isTrue();
    }

    @Test
    void reservedWord_usedBare_isRejected() {
        assertThat(failure("attribute_exists(status)", Map.of(), Map.of()))
                .isEqualTo(
                        "Invalid ConditionExpression: Attribute name is a reserved keyword; reserved keyword: status");
    }

    @Test
    void syntaxError_namesTokenAndContext() {
        assertThat(failure("num = = :v", Map.of(), Map.of(":v", n("1"))))
                .isEqualTo("Invalid ConditionExpression: Syntax error; token: \"=\", near: \"= = :v\"");
        assertThat(failure("user-id = :v", Map.of(), Map.of(":v", n("1"))))
                .isEqualTo("Invalid ConditionExpression: Syntax error; token: \"-\", near: \"user-id\"");
    }

    @Test
    void nonAsciiBareName_isASyntaxErrorNotAHang() {
        assertThat(failure("\u00e9t\u00e9 = :v", Map.of(), Map.of(":v", n("1"))))
                .startsWith("Invalid ConditionExpression: Syntax error; token: \"\u00e9\"");
        assertThat(holds("#e = :v", Map.of("#e", "\u00e9t\u00e9"), Map.of(":v", n("1"))))
                .isFalse();
    }

    @Test
    void emptyExpression_isRejected() {
        assertThat(failure("", Map.of(), Map.of()))
                .isEqualTo("Invalid ConditionExpression: The expression can not be empty;");
    }

    @Test
    void undefinedPlaceholders_areRejected() {
        assertThat(failure("#x = :v", Map.of(), Map.of(":v", n("1"))))
                .isEqualTo("Invalid ConditionExpression: An expression attribute name used in the document path is not "
                        + "defined; attribute name: #x");
        assertThat(failure("num = :nope", Map.of(), Map.of(":v", n("1"))))
                .isEqualTo(
                        "Invalid ConditionExpression: An expression attribute value used in expression is not defined; "
                                + "attribute value: :nope");
    }

    @Test
    void unusedPlaceholders_areRejectedNamesFirst() {
        assertThat(failure("num = :v", Map.of("#a", "x"), Map.of(":v", n("1"), ":w", n("2"))))
                .contains("Value provided in ExpressionAttributeNames unused in expressions: keys: {#a}");
        assertThat(failure("num = :v", Map.of(), Map.of(":v", n("1"), ":w", n("2"))))
                .contains("Value provided in ExpressionAttributeValues unused in expressions: keys: {:w}");
    }

    @Test
    void placeholdersWithoutExpression_areRejected() {
        assertThatThrownBy(() -> client.putItem(
                        r -> r.tableName("expr").item(key("b")).expressionAttributeValues(Map.of(":v", n("1")))))
                .hasMessageStartingWith("ExpressionAttributeValues can only be specified when using expressions: "
                        + "ConditionExpression is null");
        assertThatThrownBy(() -> client.putItem(
                        r -> r.tableName("expr").item(key("b")).expressionAttributeNames(Map.of("#a", "x"))))
                .hasMessageStartingWith("ExpressionAttributeNames can only be specified when using expressions");
        assertThatThrownBy(() -> client.putItem(r -> r.tableName("expr")
                        .item(key("b"))
                        .conditionExpression("attribute_not_exists(pk)")
                        .expressionAttributeNames(Map.of())))
                .hasMessageStartingWith("ExpressionAttributeNames must not be empty");
    }

    @Test
    void placeholderKeysAndValues_areValidated() {
        assertThat(failure("#a = :v", Map.of("a", "x", "#a", "y"), Map.of(":v", n("1"))))
                .isEqualTo("ExpressionAttributeNames contains invalid key: Syntax error; key: \"a\"");
        assertThat(failure("num = :v", Map.of(), Map.of(":v", n("1"), "v2", n("2"))))
                .isEqualTo("ExpressionAttributeValues contains invalid key: Syntax error; key: \"v2\"");
        assertThat(failure(
                        "num = :v",
                        Map.of(),
                        Map.of(":v", AttributeValue.builder().nul(false).build())))
                .isEqualTo(
                        "ExpressionAttributeValues contains invalid value: One or more parameter values were invalid: "
                                + "Null attribute value types must have the value of true for key :v");
    }

    @Test
    void functionErrors_useRealMessages() {
        assertThat(failure("size(str)", Map.of(), Map.of()))
                .isEqualTo("Invalid ConditionExpression: The function is not allowed to be used this way in an "
                        + "expression; function: size");
        assertThat(failure("begins_with(str, :p) = :q", Map.of(), Map.of(":p", s("a"), ":q", s("b"))))
                .isEqualTo("Invalid ConditionExpression: The function is not allowed to be used this way in an "
                        + "expression; function: begins_with");
        assertThat(failure("frob(str)", Map.of(), Map.of()))
                .isEqualTo("Invalid ConditionExpression: Invalid function name; function: frob");
        assertThat(failure("attribute_exists(str, num)", Map.of(), Map.of()))
                .isEqualTo("Invalid ConditionExpression: Incorrect number of operands for operator or function; "
                        + "operator or function: attribute_exists, number of operands: 2");
        assertThat(failure("attribute_exists(:v)", Map.of(), Map.of(":v", s("a"))))
                .isEqualTo("Invalid ConditionExpression: Operator or function requires a document path; operator or "
                        + "function: attribute_exists");
        assertThat(failure("attribute_type(str, :t)", Map.of(), Map.of(":t", s("DOG"))))
                .isEqualTo("Invalid ConditionExpression: Invalid attribute type name found; type: DOG, valid types: "
                        + "{B,NULL,SS,BOOL,L,BS,N,NS,S,M}");
        assertThat(failure("begins_with(str, :p)", Map.of(), Map.of(":p", n("1"))))
                .isEqualTo("Invalid ConditionExpression: Incorrect operand type for operator or function; operator or "
                        + "function: begins_with, operand type: N");
        assertThat(failure("contains(str, str)", Map.of(), Map.of()))
                .isEqualTo(
                        "Invalid ConditionExpression: The first operand must be distinct from the remaining operands "
                                + "for this operator or function; operator: contains, first operand: [str]");
        assertThat(failure("Begins_With(str, :p)", Map.of(), Map.of(":p", s("a"))))
                .isEqualTo("Invalid ConditionExpression: Invalid function name; function: Begins_With");
    }

    @Test
    void expressionLongerThan4Kilobytes_isRejected() {
        String longCondition = "attribute_exists(pk)" + " AND attribute_exists(pk)".repeat(200);
        assertThat(failure(longCondition, Map.of(), Map.of()))
                .startsWith("Invalid ConditionExpression: Expression size has exceeded the maximum allowed size");
    }

    @Test
    void redundantParentheses_areRejected() {
        assertThat(failure("((num = :v))", Map.of(), Map.of(":v", n("1"))))
                .isEqualTo("Invalid ConditionExpression: The expression has redundant parentheses;");
        assertThat(holds("(num = :v)", Map.of(":v", n("5")))).isTrue();
    }

    @Test
    void betweenConstants_ofDifferentTypesOrReversed_areRejected() {
        assertThat(failure("num BETWEEN :a AND :b", Map.of(), Map.of(":a", n("1"), ":b", s("a"))))
                .isEqualTo(
                        "Invalid ConditionExpression: The BETWEEN operator requires same data type for lower and upper "
                                + "bounds; lower bound operand: AttributeValue: {N:1}, upper bound operand: AttributeValue: {S:a}");
        assertThat(failure("num BETWEEN :a AND :b", Map.of(), Map.of(":a", s("b"), ":b", s("a"))))
                .isEqualTo(
                        "Invalid ConditionExpression: The BETWEEN operator requires upper bound to be greater than or "
                                + "equal to lower bound; lower bound operand: AttributeValue: {S:b}, upper bound operand: "
                                + "AttributeValue: {S:a}");
    }

    @Test
    void orderingAgainstAListConstant_isAValidationError() {
        assertThat(failure(
                        "num < :l",
                        Map.of(),
                        Map.of(":l", AttributeValue.builder().l(n("1")).build())))
                .startsWith("Invalid ConditionExpression: Incorrect operand type for operator or function");
    }

    @Test
    void binarySetsAndEqualityOfSets_areOrderInsensitive() {
        client.putItem(r -> r.tableName("expr")
                .item(Map.of(
                        "pk",
                        s("sets"),
                        "bs",
                        AttributeValue.builder()
                                .bs(SdkBytes.fromByteArray(new byte[] {1}), SdkBytes.fromByteArray(new byte[] {2}))
                                .build())));
        assertThatThrownBy(() -> client.deleteItem(r -> r.tableName("expr")
                        .key(key("sets"))
                        .conditionExpression("bs <> :v")
                        .expressionAttributeValues(Map.of(
                                ":v",
                                AttributeValue.builder()
                                        .bs(SdkBytes.fromByteArray(new byte[] {2}), SdkBytes.fromByteArray(new byte[] {1
                                        }))
                                        .build()))))
                .isInstanceOf(ConditionalCheckFailedException.class);
    }
}
