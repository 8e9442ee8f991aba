package io.lake.meta.testserver.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.Select;

class QueryFidelityTest extends ServerTestSupport {

    private static void put(String table, String pk, AttributeValue sk, Map<String, AttributeValue> extra) {
        Map<String, AttributeValue> item = new java.util.HashMap<>(extra);
        item.put("pk", s(pk));
        item.put("sk", sk);
        client.putItem(r -> r.tableName(table).item(item));
    }

    private static QueryRequest.Builder query(String table, String pk) {
        return QueryRequest.builder()
                .tableName(table)
                .keyConditionExpression("pk = :pk")
                .expressionAttributeValues(Map.of(":pk", s(pk)));
    }

    private static List<String> sortKeys(QueryResponse response) {
        return response.items().stream().map(i -> i.get("sk").s()).collect(Collectors.toList());
    }

    @Test
    void strings_sortByUtf8BytesNotUtf16() {
        createTable("tbl_q", ScalarAttributeType.S);
        // U+FFFD (EF BF BD) sorts before U+1F600 (F0 9F 98 80) in UTF-8, after it in UTF-16
        for (String sk : new String[] {"\uD83D\uDE00", "\uFFFD", "a", "B", "ab"}) {
            put("tbl_q", "p", s(sk), Map.of());
        }
        assertThat(sortKeys(client.query(query("tbl_q", "p").build())))
                .containsExactly("B", "a", "ab", "\uFFFD", "\uD83D\uDE00");
    }

    @Test
    void binaries_sortUnsigned() {
        createTable("tbl_qb", ScalarAttributeType.B);
        put("tbl_qb", "p", b((byte) 0x80), Map.of());
        put("tbl_qb", "p", b((byte) 0x01), Map.of());
        put("tbl_qb", "p", b((byte) 0x01, (byte) 0x00), Map.of());
        List<Integer> first = client.query(query("tbl_qb", "p").build()).items().stream()
                .map(i -> i.get("sk").b().asByteArray())
                .map(a -> (a[0] & 0xff) * 1000 + a.length)
                .collect(Collectors.toList());
        assertThat(first).containsExactly(1001, 1002, 128001);
    }

    @Test
    void numbers_sortNumericallyAndNormalisedKeysCollide() {
        createTable("tbl_qn", ScalarAttributeType.N);
        for (String sk : new String[] {"10", "9", "-1", "1.5", "100"}) {
            put("tbl_qn", "p", n(sk), Map.of());
        }
        put("tbl_qn", "p", n("10.0"), Map.of("again", s("yes")));
        QueryResponse response = client.query(query("tbl_qn", "p").build());
        assertThat(response.items()).extracting(i -> i.get("sk").n()).containsExactly("-1", "1.5", "9", "10", "100");
        assertThat(response.items().get(3).get("again").s()).isEqualTo("yes");
    }

    @Test
    void sortKeyConditions_selectTheRightRange() {
        createTable("tbl_qr", ScalarAttributeType.S);
        for (String sk : new String[] {"a1", "a2", "b1", "b2", "c1"}) {
            put("tbl_qr", "p", s(sk), Map.of());
        }
        put("tbl_qr", "other", s("a1"), Map.of());
        assertThat(sortKeys(client.query(r -> r.tableName("tbl_qr")
                        .keyConditionExpression("pk = :pk AND begins_with(sk, :p)")
                        .expressionAttributeValues(Map.of(":pk", s("p"), ":p", s("b"))))))
                .containsExactly("b1", "b2");
        assertThat(sortKeys(client.query(r -> r.tableName("tbl_qr")
                        .keyConditionExpression("pk = :pk AND sk BETWEEN :a AND :b")
                        .expressionAttributeValues(Map.of(":pk", s("p"), ":a", s("a2"), ":b", s("b2"))))))
                .containsExactly("a2", "b1", "b2");
        assertThat(sortKeys(client.query(r -> r.tableName("tbl_qr")
                        .keyConditionExpression(":v > sk AND pk = :pk")
                        .expressionAttributeValues(Map.of(":pk", s("p"), ":v", s("b"))))))
                .containsExactly("a1", "a2");
        assertThat(sortKeys(client.query(r -> r.tableName("tbl_qr")
                        .keyConditionExpression("(#k = :pk) AND (sk >= :v)")
                        .expressionAttributeNames(Map.of("#k", "pk"))
                        .expressionAttributeValues(Map.of(":pk", s("p"), ":v", s("b2"))))))
                .containsExactly("b2", "c1");
        assertThat(sortKeys(client.query(
                        query("tbl_qr", "p").scanIndexForward(false).build())))
                .containsExactly("c1", "b2", "b1", "a2", "a1");
        assertThat(sortKeys(client.query(r -> r.tableName("tbl_qr")
                        .keyConditionExpression("pk = :pk AND begins_with(sk, :p)")
                        .scanIndexForward(false)
                        .expressionAttributeValues(Map.of(":pk", s("p"), ":p", s("b"))))))
                .containsExactly("b2", "b1");
        assertThat(sortKeys(client.query(r -> r.tableName("tbl_qr")
                        .keyConditionExpression("pk = :pk AND sk < :v")
                        .scanIndexForward(false)
                        .exclusiveStartKey(Map.of("pk", s("p"), "sk", s("b1")))
                        .expressionAttributeValues(Map.of(":pk", s("p"), ":v", s("b2"))))))
                .containsExactly("a2", "a1");
        assertThat(sortKeys(client.query(r -> r.tableName("tbl_qr")
                        .keyConditionExpression("pk = :pk AND sk > :v")
                        .exclusiveStartKey(Map.of("pk", s("p"), "sk", s("b1")))
                        .expressionAttributeValues(Map.of(":pk", s("p"), ":v", s("a1"))))))
                .containsExactly("b2", "c1");
        assertThat(sortKeys(client.query(r -> r.tableName("tbl_qr")
                        .keyConditionExpression("pk = :pk AND sk = :v")
                        .expressionAttributeValues(Map.of(":pk", s("p"), ":v", s("b1"))))))
                .containsExactly("b1");
        assertThat(sortKeys(client.query(r -> r.tableName("tbl_qr")
                        .keyConditionExpression("pk = :pk AND sk BETWEEN :a AND :b")
                        .scanIndexForward(false)
                        .expressionAttributeValues(Map.of(":pk", s("p"), ":a", s("a2"), ":b", s("b1"))))))
                .containsExactly("b1", "a2");
    }

    @Test
    void limit_countsEvaluatedItemsBeforeTheFilter() {
        createTable("tbl_ql", ScalarAttributeType.N);
        for (int i = 1; i <= 5; i++) {
            put(
                    "tbl_ql",
                    "p",
                    n(Integer.toString(i)),
                    Map.of("odd", AttributeValue.builder().bool(i % 2 == 1).build()));
        }
        // items 1..5, sk >= 2, Limit 2, filter keeps only odd: evaluates 2 and 3, returns 3
        QueryResponse page = client.query(r -> r.tableName("tbl_ql")
                .keyConditionExpression("pk = :pk AND sk >= :two")
                .filterExpression("odd = :t")
                .limit(2)
                .expressionAttributeValues(Map.of(
                        ":pk",
                        s("p"),
                        ":two",
                        n("2"),
                        ":t",
                        AttributeValue.builder().bool(true).build())));
        assertThat(page.count()).isEqualTo(1);
        assertThat(page.scannedCount()).isEqualTo(2);
        assertThat(page.items()).extracting(i -> i.get("sk").n()).containsExactly("3");
        assertThat(page.lastEvaluatedKey()).isEqualTo(Map.of("pk", s("p"), "sk", n("3")));
    }

    @Test
    void lastEvaluatedKey_presentWhenLimitReachedExactlyAbsentWhenExhausted() {
        createTable("tbl_qe", ScalarAttributeType.S);
        put("tbl_qe", "p", s("a"), Map.of());
        put("tbl_qe", "p", s("b"), Map.of());
        QueryResponse exact = client.query(query("tbl_qe", "p").limit(2).build());
        assertThat(exact.count()).isEqualTo(2);
        assertThat(exact.lastEvaluatedKey()).isEqualTo(Map.of("pk", s("p"), "sk", s("b")));
        QueryResponse empty = client.query(query("tbl_qe", "p")
                .limit(2)
                .exclusiveStartKey(exact.lastEvaluatedKey())
                .build());
        assertThat(empty.items()).isEmpty();
        assertThat(empty.hasLastEvaluatedKey()).isFalse();
        QueryResponse all = client.query(query("tbl_qe", "p").limit(3).build());
        assertThat(all.hasLastEvaluatedKey()).isFalse();
        assertThat(client.queryPaginator(query("tbl_qe", "p").limit(1).build()).items())
                .hasSize(2);
    }

    @Test
    void exclusiveStartKey_resumesPositionallyBothDirections() {
        createTable("tbl_qp", ScalarAttributeType.S);
        for (String sk : new String[] {"a", "b", "c", "d"}) {
            put("tbl_qp", "p", s(sk), Map.of());
        }
        assertThat(sortKeys(client.query(query("tbl_qp", "p")
                        .exclusiveStartKey(Map.of("pk", s("p"), "sk", s("bb")))
                        .build())))
                .containsExactly("c", "d");
        assertThat(sortKeys(client.query(query("tbl_qp", "p")
                        .scanIndexForward(false)
                        .exclusiveStartKey(Map.of("pk", s("p"), "sk", s("c")))
                        .build())))
                .containsExactly("b", "a");
    }

    @Test
    void exclusiveStartKey_validation() {
        createTable("tbl_qv", ScalarAttributeType.S);
        assertThat(queryError(query("tbl_qv", "p")
                        .exclusiveStartKey(Map.of("pk", s("p")))
                        .build()))
                .isEqualTo("ValidationException: The provided starting key is invalid");
        assertThatThrownBy(() -> client.query(query("tbl_qv", "p")
                        .exclusiveStartKey(Map.of("pk", s("q"), "sk", s("a")))
                        .build()))
                .hasMessageStartingWith(
                        "The provided starting key is outside query boundaries based on provided conditions");
        assertThatThrownBy(() -> client.query(r -> r.tableName("tbl_qv")
                        .keyConditionExpression("pk = :pk AND begins_with(sk, :b)")
                        .expressionAttributeValues(Map.of(":pk", s("p"), ":b", s("b")))
                        .exclusiveStartKey(Map.of("pk", s("p"), "sk", s("a")))))
                .hasMessageStartingWith("The provided starting key does not match the range key predicate");
        assertThatThrownBy(() -> client.query(r -> r.tableName("tbl_qv")
                        .keyConditionExpression("pk = :pk AND sk = :b")
                        .expressionAttributeValues(Map.of(":pk", s("p"), ":b", s("b")))
                        .exclusiveStartKey(Map.of("pk", s("p"), "sk", s("b")))))
                .hasMessageStartingWith("The query can return at most one row and cannot be restarted");
    }

    /** The error code and message a Query answers with, or "no error". */
    private static String queryError(QueryRequest request) {
        try {
            client.query(request);
            return "no error";
        } catch (DynamoDbException e) {
            return e.awsErrorDetails().errorCode() + ": " + e.awsErrorDetails().errorMessage();
        }
    }

    @Test
    void emptyKeyValue_inEverySortKeyCondition_isRejectedNamingTheKey() {
        createTable("tbl_qy", ScalarAttributeType.S);
        put("tbl_qy", "p", s("a"), Map.of());
        String empty = "ValidationException: One or more parameter values are not valid. The AttributeValue for a key "
                + "attribute cannot contain an empty string value. Key: sk";
        Map<String, String> answers = new java.util.LinkedHashMap<>();
        for (String condition : new String[] {
            "sk = :e",
            "begins_with(sk, :e)",
            "sk < :e",
            "sk <= :e",
            "sk > :e",
            "sk >= :e",
            ":e < sk",
            "sk BETWEEN :e AND :z"
        }) {
            answers.put(
                    condition,
                    queryError(QueryRequest.builder()
                            .tableName("tbl_qy")
                            .keyConditionExpression("pk = :p AND " + condition)
                            .expressionAttributeValues(
                                    condition.contains(":z")
                                            ? Map.of(":p", s("p"), ":e", s(""), ":z", s("z"))
                                            : Map.of(":p", s("p"), ":e", s("")))
                            .build()));
        }
        assertThat(answers)
                .allSatisfy(
                        (condition, answer) -> assertThat(answer).as(condition).isEqualTo(empty));
    }

    @Test
    void emptyBinaryKeyValue_inASortKeyCondition_isRejectedNamingTheKey() {
        createTable("tbl_qyb", ScalarAttributeType.B);
        put("tbl_qyb", "p", b((byte) 1), Map.of());
        String empty = "ValidationException: One or more parameter values are not valid. The AttributeValue for a key "
                + "attribute cannot contain an empty binary value. Key: sk";
        for (String condition : new String[] {"sk = :e", "begins_with(sk, :e)", "sk >= :e"}) {
            assertThat(queryError(QueryRequest.builder()
                            .tableName("tbl_qyb")
                            .keyConditionExpression("pk = :p AND " + condition)
                            .expressionAttributeValues(Map.of(":p", s("p"), ":e", b()))
                            .build()))
                    .as(condition)
                    .isEqualTo(empty);
        }
    }

    @Test
    void wholeKeyFixed_pageHasNoLastEvaluatedKeyAndThePaginatorEnds() {
        createTable("tbl_q1", ScalarAttributeType.S);
        put("tbl_q1", "p", s("a"), Map.of());
        put("tbl_q1", "p", s("b"), Map.of());
        QueryRequest oneRow = QueryRequest.builder()
                .tableName("tbl_q1")
                .keyConditionExpression("pk = :p AND sk = :s")
                .expressionAttributeValues(Map.of(":p", s("p"), ":s", s("a")))
                .limit(1)
                .build();
        QueryResponse page = client.query(oneRow);
        assertThat(sortKeys(page)).containsExactly("a");
        assertThat(page.hasLastEvaluatedKey())
                .as("LastEvaluatedKey of a query that can match one item")
                .isFalse();
        assertThat(client.queryPaginator(oneRow).items())
                .extracting(i -> i.get("sk").s())
                .containsExactly("a");
    }

    @Test
    void hashOnlyTable_partitionKeyFixesTheWholeKey_noLastEvaluatedKey() {
        createTable("tbl_q1h", null);
        client.putItem(r -> r.tableName("tbl_q1h").item(key("p")));
        QueryResponse page = client.query(r -> r.tableName("tbl_q1h")
                .keyConditionExpression("pk = :p")
                .expressionAttributeValues(Map.of(":p", s("p")))
                .limit(1));
        assertThat(page.count()).isEqualTo(1);
        assertThat(page.hasLastEvaluatedKey())
                .as("LastEvaluatedKey of a query that can match one item")
                .isFalse();
    }

    @Test
    void exclusiveStartKey_shapeErrors_useTheQueryMessages() {
        createTable("tbl_qx", ScalarAttributeType.S);
        Map<String, Map<String, AttributeValue>> shapes = new java.util.LinkedHashMap<>();
        shapes.put("only the partition key", Map.of("pk", s("p")));
        shapes.put("a key attribute missing", Map.of("pk", s("p"), "extra", s("a")));
        shapes.put("an attribute too many", Map.of("pk", s("p"), "sk", s("a"), "extra", s("a")));
        shapes.put("no attribute", Map.of());
        Map<String, String> answers = new java.util.LinkedHashMap<>();
        shapes.forEach((what, startKey) -> answers.put(
                what,
                queryError(query("tbl_qx", "p").exclusiveStartKey(startKey).build())));
        answers.put(
                "sort key of the wrong type",
                queryError(query("tbl_qx", "p")
                        .exclusiveStartKey(Map.of("pk", s("p"), "sk", n("1")))
                        .build()));
        answers.put(
                "partition key of the wrong type",
                queryError(query("tbl_qx", "p")
                        .exclusiveStartKey(Map.of("pk", n("1"), "sk", s("a")))
                        .build()));
        answers.put(
                "an empty sort key",
                queryError(query("tbl_qx", "p")
                        .exclusiveStartKey(Map.of("pk", s("p"), "sk", s("")))
                        .build()));
        assertThat(answers)
                .containsExactly(
                        Map.entry(
                                "only the partition key", "ValidationException: The provided starting key is invalid"),
                        Map.entry(
                                "a key attribute missing", "ValidationException: The provided starting key is invalid"),
                        Map.entry("an attribute too many", "ValidationException: The provided starting key is invalid"),
                        Map.entry("no attribute", "ValidationException: The provided starting key is invalid"),
                        Map.entry(
                                "sort key of the wrong type",
                                "ValidationException: The provided key element does not match the schema"),
                        Map.entry(
                                "partition key of the wrong type",
                                "ValidationException: The provided key element does not match the schema"),
                        Map.entry(
                                "an empty sort key",
                                "ValidationException: The provided starting key is invalid: One or more parameter "
                                        + "values are not valid. The AttributeValue for a key attribute cannot contain an empty string value. Key: sk"));
    }

    @Test
    void exclusiveStartKey_shapeIsCheckedBeforeTheKeyConditionNamesItsAttributes() {
        createTable("tbl_qo", ScalarAttributeType.S);
        // the start key's shape comes first; the partition key's type before its missing condition
        assertThat(queryError(QueryRequest.builder()
                        .tableName("tbl_qo")
                        .keyConditionExpression("extra = :v")
                        .expressionAttributeValues(Map.of(":v", s("x")))
                        .exclusiveStartKey(Map.of("pk", s("p")))
                        .build()))
                .isEqualTo("ValidationException: The provided starting key is invalid");
        assertThat(queryError(QueryRequest.builder()
                        .tableName("tbl_qo")
                        .keyConditionExpression("extra = :v")
                        .expressionAttributeValues(Map.of(":v", s("x")))
                        .exclusiveStartKey(Map.of("pk", n("1"), "extra", s("a")))
                        .build()))
                .isEqualTo("ValidationException: The provided key element does not match the schema");
        // a start key naming the partition key well, but not the sort key: the missing partition-key condition first
        assertThat(queryError(QueryRequest.builder()
                        .tableName("tbl_qo")
                        .keyConditionExpression("extra = :v")
                        .expressionAttributeValues(Map.of(":v", s("x")))
                        .exclusiveStartKey(Map.of("pk", s("p"), "extra", s("a")))
                        .build()))
                .isEqualTo("ValidationException: Query condition missed key schema element: pk");
    }

    @Test
    void exclusiveStartKey_ofAnotherPartitionUnderASortKeyCondition_cannotBeRestarted() {
        createTable("tbl_qr1", ScalarAttributeType.S);
        QueryRequest.Builder belowB = QueryRequest.builder()
                .tableName("tbl_qr1")
                .keyConditionExpression("pk = :p AND sk < :b")
                .expressionAttributeValues(Map.of(":p", s("p"), ":b", s("b")));
        assertThat(queryError(belowB.exclusiveStartKey(Map.of("pk", s("q"), "sk", s("a")))
                        .build()))
                .isEqualTo("ValidationException: The query can return at most one row and cannot be restarted");
        // the sort-key predicate is checked before the partition
        assertThat(queryError(belowB.exclusiveStartKey(Map.of("pk", s("q"), "sk", s("c")))
                        .build()))
                .isEqualTo("ValidationException: The provided starting key does not match the range key predicate");
    }

    @Test
    void page_stopsAfterTheItemThatCrossesOneMegabyte() {
        createTable("tbl_qm", ScalarAttributeType.N);
        String big = "x".repeat(300_000);
        for (int i = 0; i < 5; i++) {
            put("tbl_qm", "p", n(Integer.toString(i)), Map.of("v", s(big)));
        }
        QueryResponse first = client.query(query("tbl_qm", "p").build());
        assertThat(first.count()).isEqualTo(4); // 4 x ~300 KB passes 1 MB on the fourth item
        assertThat(first.lastEvaluatedKey()).containsEntry("sk", n("3"));
        QueryResponse second = client.query(
                query("tbl_qm", "p").exclusiveStartKey(first.lastEvaluatedKey()).build());
        assertThat(second.count()).isEqualTo(1);
        assertThat(second.hasLastEvaluatedKey()).isFalse();
    }

    @Test
    void selectCount_hasNoItemsMember() {
        createTable("tbl_qc", ScalarAttributeType.S);
        put("tbl_qc", "p", s("a"), Map.of());
        put("tbl_qc", "p", s("b"), Map.of());
        QueryResponse response =
                client.query(query("tbl_qc", "p").select(Select.COUNT).build());
        assertThat(response.hasItems()).isFalse();
        assertThat(response.count()).isEqualTo(2);
        assertThat(response.scannedCount()).isEqualTo(2);
    }

    @Test
    void keyValueLimits_applyToQueriesToo() {
        createTable("tbl_ql", ScalarAttributeType.S);
        assertThatThrownBy(() -> client.query(query("tbl_ql", "").build()))
                .hasMessageStartingWith("One or more parameter values are not valid. The AttributeValue for a key "
                        + "attribute cannot contain an empty string value. Key: pk");
        assertThatThrownBy(() -> client.query(query("tbl_ql", "x".repeat(2049)).build()))
                .hasMessageStartingWith("One or more parameter values were invalid: Size of hashkey has exceeded the "
                        + "maximum size limit of2048 bytes");
        assertThatThrownBy(() -> client.query(r -> r.tableName("tbl_ql")
                        .keyConditionExpression("pk = :p AND sk > :s")
                        .expressionAttributeValues(Map.of(":p", s("p"), ":s", s("x".repeat(1025))))))
                .hasMessageStartingWith("One or more parameter values were invalid: Aggregated size of all range keys "
                        + "has exceeded the size limit of 1024 bytes");
    }

    @Test
    void selectErrors_useRealMessages() {
        createTable("tbl_qs", ScalarAttributeType.S);
        assertThatThrownBy(() -> client.query(query("tbl_qs", "p")
                        .select(Select.ALL_PROJECTED_ATTRIBUTES)
                        .build()))
                .hasMessageStartingWith("ALL_PROJECTED_ATTRIBUTES can be used only when Querying using an IndexName");
        assertThatThrownBy(() -> client.query(
                        query("tbl_qs", "p").select(Select.SPECIFIC_ATTRIBUTES).build()))
                .hasMessageStartingWith("Must specify the AttributesToGet or ProjectionExpression when choosing to get "
                        + "SPECIFIC_ATTRIBUTES");
        assertThatThrownBy(() -> client.query(query("tbl_qs", "p")
                        .select(Select.COUNT)
                        .projectionExpression("x")
                        .build()))
                .hasMessageStartingWith("Cannot specify the ProjectionExpression when choosing to get only the Count");
        assertThatThrownBy(() ->
                        client.query(query("tbl_qs", "p").select("EVERYTHING").build()))
                .hasMessageStartingWith("1 validation error detected: Value 'EVERYTHING' at 'select' failed to satisfy "
                        + "constraint: Member must satisfy enum value set: [SPECIFIC_ATTRIBUTES, COUNT, ALL_ATTRIBUTES, "
                        + "ALL_PROJECTED_ATTRIBUTES]");
    }

    @Test
    void projection_keepsOnlyNamedPaths() {
        createTable("tbl_qj", ScalarAttributeType.S);
        put(
                "tbl_qj",
                "p",
                s("a"),
                Map.of(
                        "x",
                        s("1"),
                        "y",
                        AttributeValue.builder()
                                .m(Map.of("z", s("2"), "w", s("3")))
                                .build()));
        QueryResponse response = client.query(
                query("tbl_qj", "p").projectionExpression("x, y.z, nothere").build());
        assertThat(response.items())
                .containsExactly(Map.of(
                        "x",
                        s("1"),
                        "y",
                        AttributeValue.builder().m(Map.of("z", s("2"))).build()));
    }

    @Test
    void limitZero_isRejectedWithQuerySpelling() {
        createTable("tbl_qz", ScalarAttributeType.S);
        assertThatThrownBy(() -> client.query(query("tbl_qz", "p").limit(0).build()))
                .hasMessageStartingWith("1 validation error detected: Value at 'Limit' failed to satisfy constraint: "
                        + "Member must have value greater than or equal to 1");
    }

    @Test
    void keyConditionErrors_useRealMessages() {
        createTable("tbl_qk", ScalarAttributeType.S);
        List<String> messages = new ArrayList<>();
        String[][] cases = {
            {"sk = :v", "Query condition missed key schema element: pk"},
            {"pk = :v OR sk = :v", "Invalid operator used in KeyConditionExpression: OR"},
            {"pk < :v", "Query key condition not supported"},
            {"pk = :v AND contains(sk, :v)", "Invalid operator used in KeyConditionExpression: contains"},
            {"pk = :v AND sk = :v AND sk = :v", "Query key condition not supported"},
            {"pk = :v AND size(sk) = :v", "KeyConditionExpressions cannot contain nested operations"},
            {"pk = :v AND sk.x = :v", "KeyConditionExpressions cannot have conditions on nested attributes"},
            {"pk = :v AND extra = :v", "Query condition missed key schema element: sk"},
            {
                "pk = sk AND sk = :v",
                "Invalid condition in KeyConditionExpression: Multiple attribute names used in one condition"
            },
        };
        for (String[] c : cases) {
            try {
                client.query(r -> r.tableName("tbl_qk")
                        .keyConditionExpression(c[0])
                        .expressionAttributeValues(Map.of(":v", s("x"))));
                messages.add("no error for " + c[0]);
            } catch (DynamoDbException e) {
                assertThat(e.awsErrorDetails().errorMessage()).as(c[0]).isEqualTo(c[1]);
            }
        }
        assertThat(messages).isEmpty();
        assertThatThrownBy(() -> client.query(r -> r.tableName("tbl_qk")
                        .keyConditionExpression("pk = :v")
                        .expressionAttributeValues(Map.of(":v", n("1")))))
                .hasMessageStartingWith(
                        "One or more parameter values were invalid: Condition parameter type does not match schema type");
        assertThatThrownBy(() -> client.query(r -> r.tableName("tbl_qk")
                        .keyConditionExpression("pk = :v")
                        .filterExpression("sk = :v")
                        .expressionAttributeValues(Map.of(":v", s("1")))))
                .hasMessageStartingWith(
                        "Filter Expression can only contain non-primary key attributes: Primary key attribute: sk");
        assertThatThrownBy(() -> client.query(r -> r.tableName("tbl_qk")
                        .keyConditionExpression("pk = :v")
                        .indexName("byX")
                        .expressionAttributeValues(Map.of(":v", s("1")))))
                .hasMessageStartingWith("The table does not have the specified index: byX");
    }
}
