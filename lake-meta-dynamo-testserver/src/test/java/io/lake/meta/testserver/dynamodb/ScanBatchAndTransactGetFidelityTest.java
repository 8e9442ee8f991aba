package io.lake.meta.testserver.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.DeleteRequest;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;
import software.amazon.awssdk.services.dynamodb.model.TransactGetItem;
import software.amazon.awssdk.services.dynamodb.model.TransactGetItemsResponse;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

@SuppressWarnings("unchecked") // the SDK's builder methods take generic varargs
class ScanBatchAndTransactGetFidelityTest extends ServerTestSupport {

    @BeforeEach
    void items() {
        createTable("scn", null);
        List<WriteRequest> writes = new ArrayList<>();
        for (int i = 0; i < 25; i++) {
            int v = i;
            writes.add(WriteRequest.builder()
                    .putRequest(PutRequest.builder()
                            .item(Map.of("pk", s("k" + v), "v", n(Integer.toString(v))))
                            .build())
                    .build());
        }
        var response = client.batchWriteItem(r -> r.requestItems(Map.of("scn", writes)));
        assertThat(response.unprocessedItems()).isEmpty();
    }

    private static Set<String> keys(List<Map<String, AttributeValue>> items) {
        Set<String> keys = new HashSet<>();
        items.forEach(i -> keys.add(i.get("pk").s()));
        return keys;
    }

    @Test
    void scan_pagesThroughEverythingOnceWithLimit() {
        Set<String> seen = new HashSet<>();
        int pages = 0;
        for (ScanResponse page : client.scanPaginator(r -> r.tableName("scn").limit(7))) {
            assertThat(page.scannedCount()).isLessThanOrEqualTo(7);
            for (Map<String, AttributeValue> item : page.items()) {
                assertThat(seen.add(item.get("pk").s())).isTrue();
            }
            pages++;
        }
        assertThat(seen).hasSize(25);
        assertThat(pages).isEqualTo(4);
    }

    @Test
    void scan_filterCountsVersusScannedCount() {
        ScanResponse response = client.scan(r ->
                r.tableName("scn").filterExpression("v < :five").expressionAttributeValues(Map.of(":five", n("5"))));
        assertThat(response.count()).isEqualTo(5);
        assertThat(response.scannedCount()).isEqualTo(25);
        assertThat(response.hasLastEvaluatedKey()).isFalse();
    }

    @Test
    void parallelScan_segmentsPartitionTheTable() {
        Set<String> union = new HashSet<>();
        int total = 0;
        for (int segment = 0; segment < 4; segment++) {
            int s = segment;
            List<Map<String, AttributeValue>> items = new ArrayList<>();
            client.scanPaginator(
                            r -> r.tableName("scn").segment(s).totalSegments(4).limit(3))
                    .items()
                    .forEach(items::add);
            total += items.size();
            union.addAll(keys(items));
        }
        assertThat(total).isEqualTo(25);
        assertThat(union).hasSize(25);
    }

    @Test
    void parallelScan_parameterErrors() {
        assertThatThrownBy(() -> client.scan(r -> r.tableName("scn").segment(1)))
                .hasMessageStartingWith(
                        "The TotalSegments parameter is required but was not present in the request when "
                                + "Segment parameter is present");
        assertThatThrownBy(() -> client.scan(r -> r.tableName("scn").totalSegments(2)))
                .hasMessageStartingWith("The Segment parameter is required but was not present in the request when "
                        + "parameter TotalSegments is present");
        assertThatThrownBy(() -> client.scan(r -> r.tableName("scn").segment(5).totalSegments(5)))
                .hasMessageStartingWith(
                        "The Segment parameter is zero-based and must be less than parameter TotalSegments: "
                                + "Segment: 5 is not less than TotalSegments: 5");
        assertThatThrownBy(() -> client.scan(r -> r.tableName("scn").limit(0)))
                .hasMessageStartingWith(
                        "1 validation error detected: Value '0' at 'limit' failed to satisfy constraint: "
                                + "Member must have value greater than or equal to 1");
    }

    @Test
    void batchGet_returnsFoundItemsAndEmptyUnprocessedKeys() {
        BatchGetItemResponse response = client.batchGetItem(r -> r.requestItems(Map.of(
                "scn",
                KeysAndAttributes.builder()
                        .keys(key("k1"), key("k2"), key("nope"))
                        .projectionExpression("pk")
                        .build())));
        assertThat(keys(response.responses().get("scn"))).containsExactlyInAnyOrder("k1", "k2");
        assertThat(response.responses().get("scn"))
                .allSatisfy(i -> assertThat(i).containsOnlyKeys("pk"));
        assertThat(response.unprocessedKeys()).isEmpty();
        long pages = client
                .batchGetItemPaginator(r -> r.requestItems(Map.of(
                        "scn", KeysAndAttributes.builder().keys(key("k3")).build())))
                .stream()
                .count();
        assertThat(pages).isEqualTo(1);
    }

    @Test
    void batchGet_duplicateKeysAndTooMany_areRejected() {
        assertThatThrownBy(() -> client.batchGetItem(r -> r.requestItems(Map.of(
                        "scn",
                        KeysAndAttributes.builder().keys(key("k1"), key("k1")).build()))))
                .hasMessageStartingWith("Provided list of item keys contains duplicates");
        List<Map<String, AttributeValue>> many = new ArrayList<>();
        for (int i = 0; i < 101; i++) {
            many.add(key("x" + i));
        }
        assertThatThrownBy(() -> client.batchGetItem(r -> r.requestItems(
                        Map.of("scn", KeysAndAttributes.builder().keys(many).build()))))
                .hasMessageStartingWith("Too many items requested for the BatchGetItem call");
    }

    @Test
    void batchWrite_deletesAndPuts() {
        client.batchWriteItem(r -> r.requestItems(Map.of(
                "scn",
                List.of(
                        WriteRequest.builder()
                                .deleteRequest(
                                        DeleteRequest.builder().key(key("k1")).build())
                                .build(),
                        WriteRequest.builder()
                                .putRequest(
                                        PutRequest.builder().item(key("new")).build())
                                .build()))));
        assertThat(client.getItem(r -> r.tableName("scn").key(key("k1"))).hasItem())
                .isFalse();
        assertThat(client.getItem(r -> r.tableName("scn").key(key("new"))).hasItem())
                .isTrue();
    }

    @Test
    void transactGet_isPositionalWithEmptyEntryForMissingItems() {
        TransactGetItemsResponse response = client.transactGetItems(r -> r.transactItems(
                TransactGetItem.builder()
                        .get(g -> g.tableName("scn").key(key("k3")))
                        .build(),
                TransactGetItem.builder()
                        .get(g -> g.tableName("scn").key(key("missing")))
                        .build(),
                TransactGetItem.builder()
                        .get(g -> g.tableName("scn").key(key("k4")).projectionExpression("v"))
                        .build()));
        assertThat(response.responses()).hasSize(3);
        assertThat(response.responses().get(0).item()).isEqualTo(Map.of("pk", s("k3"), "v", n("3")));
        assertThat(response.responses().get(1).hasItem()).isFalse();
        assertThat(response.responses().get(2).item()).isEqualTo(Map.of("v", n("4")));
    }

    @Test
    void transactGet_consumedCapacityIsTwiceTheReadUnits() {
        var response = client.transactGetItems(r -> r.returnConsumedCapacity("TOTAL")
                .transactItems(
                        TransactGetItem.builder()
                                .get(g -> g.tableName("scn").key(key("k3")))
                                .build(),
                        TransactGetItem.builder()
                                .get(g -> g.tableName("scn").key(key("k4")))
                                .build()));
        assertThat(response.consumedCapacity()).hasSize(1);
        assertThat(response.consumedCapacity().get(0).capacityUnits()).isEqualTo(4.0);
        assertThat(response.consumedCapacity().get(0).readCapacityUnits()).isEqualTo(4.0);
    }

    @Test
    void batchWrite_over25Requests_isRejected() {
        List<WriteRequest> writes = new ArrayList<>();
        for (int i = 0; i < 26; i++) {
            writes.add(WriteRequest.builder()
                    .putRequest(PutRequest.builder().item(key("z" + i)).build())
                    .build());
        }
        assertThatThrownBy(() -> client.batchWriteItem(r -> r.requestItems(Map.of("scn", writes))))
                .hasMessageContaining("Member must have length less than or equal to 25");
        assertThat(client.getItem(r -> r.tableName("scn").key(key("z0"))).hasItem())
                .isFalse();
    }

    @Test
    void scan_startKeyFromAnotherSegment_isRejected() {
        ScanResponse first =
                client.scan(r -> r.tableName("scn").segment(0).totalSegments(2).limit(1));
        assertThat(first.hasLastEvaluatedKey()).isTrue();
        assertThatThrownBy(() -> client.scan(r ->
                        r.tableName("scn").segment(1).totalSegments(2).exclusiveStartKey(first.lastEvaluatedKey())))
                .hasMessageStartingWith("The provided starting key is invalid: Invalid ExclusiveStartKey. Please use "
                        + "ExclusiveStartKey with correct Segment. TotalSegments: 2 Segment: 1");
    }

    @Test
    void transactGet_malformedKeyIsValidationErrorReason() {
        assertThatThrownBy(() -> client.transactGetItems(r -> r.transactItems(
                        TransactGetItem.builder()
                                .get(g -> g.tableName("scn").key(key("k3")))
                                .build(),
                        TransactGetItem.builder()
                                .get(g -> g.tableName("scn").key(Map.of()))
                                .build())))
                .isInstanceOfSatisfying(
                        TransactionCanceledException.class,
                        e -> assertThat(e.cancellationReasons())
                                .extracting(CancellationReason::code)
                                .containsExactly("None", "ValidationError"));
    }
}
