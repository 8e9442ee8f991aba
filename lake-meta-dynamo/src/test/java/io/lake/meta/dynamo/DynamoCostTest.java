package io.lake.meta.dynamo;

import static org.assertj.core.api.Assertions.assertThat;

import io.lake.meta.Entry;
import io.lake.meta.GuardedMutation;
import io.lake.meta.GuardedResult;
import io.lake.meta.KeyPrefix;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaValue;
import io.lake.meta.Mutation;
import io.lake.meta.Page;
import io.lake.meta.PageRequest;
import io.lake.meta.testserver.dynamodb.DynamoDbTestServer;
import io.lake.meta.testserver.dynamodb.stats.TableStatistics;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * What each call costs, read from the in-process server's per-table statistics: one request per
 * call, and pages that never evaluate another family's items.
 */
class DynamoCostTest extends DynamoTestSupport {

    private static final MetaKey GUARD = MetaKey.of("lease/leader");
    private static final MetaKey K = MetaKey.of("tbl/ns1/orders");
    private static final MetaValue A = MetaValue.utf8("a");
    private static final MetaValue B = MetaValue.utf8("b");

    private DynamoDbTestServer server;
    private DynamoDbClient client;

    @BeforeEach
    void needsStatistics() {
        server = TARGET.requireInProcessServer();
        client = client();
    }

    private <T> Map<String, Long> requestsOf(DynamoTableStore store, Supplier<T> call) {
        String table = tableOf(store);
        TableStatistics before = server.statistics().table(table);
        var unused = call.get(); // what the call answers is not counted, its requests are
        return requestsSince(before, server, table);
    }

    @Test
    void eachCall_isExactlyOneRequest() {
        DynamoTableStore store = openNew(client, "cost-ops", null);
        store.create(GUARD, A);

        assertThat(requestsOf(store, () -> store.get(K))).isEqualTo(Map.of("GetItem", 1L));
        assertThat(requestsOf(store, () -> store.create(K, A))).isEqualTo(Map.of("PutItem", 1L));
        assertThat(requestsOf(store, () -> store.create(K, B)))
                .as("a create conflict, value reported")
                .isEqualTo(Map.of("PutItem", 1L));
        assertThat(requestsOf(store, () -> store.update(K, A, B))).isEqualTo(Map.of("PutItem", 1L));
        assertThat(requestsOf(store, () -> store.update(K, A, B)))
                .as("an update conflict")
                .isEqualTo(Map.of("PutItem", 1L));
        assertThat(requestsOf(store, () -> store.delete(K, A)))
                .as("a delete conflict")
                .isEqualTo(Map.of("DeleteItem", 1L));
        assertThat(requestsOf(store, () -> store.applyGuarded(new GuardedMutation(GUARD, A, Mutation.update(K, B, A)))))
                .isEqualTo(Map.of("TransactWriteItems", 1L));
        assertThat(requestsOf(store, () -> store.applyGuarded(new GuardedMutation(GUARD, B, Mutation.delete(K, A)))))
                .as("a guard rejection")
                .isEqualTo(Map.of("TransactWriteItems", 1L));
        assertThat(requestsOf(store, () -> store.page(KeyPrefix.of("tbl/"), 10)))
                .as("a page that never fills reads each shard once, in the same call")
                .isEqualTo(Map.of("Query", (long) ((V2Layout) store.layout()).shards()));
        assertThat(requestsOf(store, () -> store.delete(K, A))).isEqualTo(Map.of("DeleteItem", 1L));
    }

    @Test
    void conflicts_reportTheCurrentValue_withoutASecondRead() {
        DynamoTableStore store = openNew(client, "cost-conflict", null);
        store.create(K, A);
        assertThat(store.create(K, B).currentValue()).contains(A);
        assertThat(store.update(K, B, A).currentValue()).contains(A);
        assertThat(store.delete(K, B).currentValue()).contains(A);
        assertThat(store.update(MetaKey.of("tbl/absent"), A, B).isCurrentKnown())
                .isTrue();
        assertThat(store.update(MetaKey.of("tbl/absent"), A, B).currentValue()).isEmpty();
        store.create(GUARD, A);
        GuardedResult conflict = store.applyGuarded(new GuardedMutation(GUARD, A, Mutation.update(K, B, A)));
        assertThat(conflict.targetResult()).contains(io.lake.meta.WriteResult.conflict(Optional.of(A)));
    }

    /** Writes keys straight into the table (25 per BatchWriteItem), bypassing the store, to set up volume cheaply. */
    private void load(DynamoTableStore store, List<MetaKey> keys) {
        V2Layout layout = (V2Layout) store.layout();
        String table = tableOf(store);
        for (int i = 0; i < keys.size(); i += 25) {
            List<WriteRequest> batch = keys.subList(i, Math.min(keys.size(), i + 25)).stream()
                    .map(k -> WriteRequest.builder()
                            .putRequest(PutRequest.builder()
                                    .item(layout.itemOf(k, MetaValue.utf8("value of " + k)))
                                    .build())
                            .build())
                    .collect(Collectors.toList());
            Map<String, List<WriteRequest>> unprocessed = Map.of(table, batch);
            while (!unprocessed.isEmpty()) {
                Map<String, List<WriteRequest>> req = unprocessed;
                unprocessed = client.batchWriteItem(r -> r.requestItems(req)).unprocessedItems();
            }
        }
    }

    @Test
    void pages_evaluateOnlyTheirPrefix_amongThousandsOfUnrelatedKeys() {
        DynamoTableStore store = openNew(client, "cost-isolation", null);
        List<MetaKey> noise = new ArrayList<>();
        for (int i = 0; i < 1500; i++) {
            noise.add(MetaKey.of("ops/op-" + i));
            noise.add(MetaKey.of("tbm/ns1/t" + i));
        }
        for (int i = 0; i < 300; i++) {
            noise.add(MetaKey.of("tbl/ns10/t" + i));
        }
        List<MetaKey> wanted = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            wanted.add(MetaKey.of("tbl/ns1/t" + i));
        }
        load(store, noise);
        load(store, wanted);

        String table = tableOf(store);
        KeyPrefix prefix = KeyPrefix.of("tbl/ns1/");
        Set<MetaKey> seen = new HashSet<>();
        Optional<PageRequest> request = Optional.of(PageRequest.first(prefix, 7));
        long evaluatedByPages = 0;
        long requestsOfPages = 0;
        TableStatistics start = server.statistics().table(table);
        while (request.isPresent()) {
            TableStatistics before = server.statistics().table(table);
            Page page = store.page(request.get());
            TableStatistics after = server.statistics().table(table);
            long evaluated = after.itemsEvaluated() - before.itemsEvaluated();
            assertThat(evaluated)
                    .as("server-side items evaluated by one page")
                    .isLessThanOrEqualTo(7)
                    .isEqualTo(page.cost().itemsEvaluated())
                    .isEqualTo(page.entries().size());
            assertThat(page.cost().capacityUnits())
                    .as("a strongly consistent query costs at least 1 RCU")
                    .isGreaterThanOrEqualTo(1.0);
            for (Entry e : page.entries()) {
                assertThat(prefix.contains(e.key())).isTrue();
                assertThat(seen.add(e.key())).as("returned twice: %s", e.key()).isTrue();
                assertThat(e.value()).isEqualTo(MetaValue.utf8("value of " + e.key()));
            }
            evaluatedByPages += evaluated;
            requestsOfPages += page.cost().requests();
            request = request.get().next(page);
        }
        assertThat(seen).containsExactlyInAnyOrderElementsOf(wanted);
        TableStatistics end = server.statistics().table(table);
        assertThat(end.itemsEvaluated() - start.itemsEvaluated())
                .as("items the whole iteration evaluated")
                .isEqualTo(evaluatedByPages)
                .isEqualTo(wanted.size());
        assertThat(end.requests("Query") - start.requests("Query")).isEqualTo(requestsOfPages);
    }

    @Test
    void sizeOnePages_walkEveryShardOnceInOrder_andReturnEveryKeyOnce() {
        DynamoTableStore store = openNew(client, "cost-walk", null);
        int shards = ((V2Layout) store.layout()).shards();
        List<MetaKey> wanted = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            wanted.add(MetaKey.of("tbl/ns1/k" + i));
        }
        List<MetaKey> noise = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            noise.add(MetaKey.of("other/k" + i));
        }
        load(store, noise);
        load(store, wanted);
        KeyPrefix prefix = KeyPrefix.of("tbl/ns1/");

        String table = tableOf(store);
        TableStatistics before = server.statistics().table(table);
        List<Integer> shardOfEachKey = new ArrayList<>();
        List<MetaKey> returned = new ArrayList<>();
        int pageCalls = 0;
        Optional<PageRequest> request = Optional.of(PageRequest.first(prefix, 1));
        while (request.isPresent()) {
            Page page = store.page(request.get());
            pageCalls++;
            for (Entry e : page.entries()) {
                shardOfEachKey.add(ShardFunction.shardOf(e.key(), shards));
                returned.add(e.key());
            }
            request = request.get().next(page);
        }

        assertThat(returned).containsExactlyInAnyOrderElementsOf(wanted).doesNotHaveDuplicates();
        assertThat(shardOfEachKey)
                .as("shards are visited in order, each in one run")
                .isSorted();
        assertThat(pageCalls).as("one page per key, and one that finds the end").isEqualTo(wanted.size() + 1);
        long queries = requestsSince(before, server, table).get("Query");
        assertThat(queries)
                .as("one query per key, plus one per shard that finds the shard done")
                .isEqualTo(wanted.size() + shards);
        assertThat(server.statistics().table(table).itemsEvaluated() - before.itemsEvaluated())
                .isEqualTo(wanted.size());
    }

    @Test
    void emptyFamily_isOnePageCall_ofOneEmptyQueryPerShard() {
        DynamoTableStore store = openNew(client, "cost-empty", 4);
        load(store, List.of(MetaKey.of("other/a"), MetaKey.of("other/b")));
        KeyPrefix prefix = KeyPrefix.of("tbl/");
        Page page = store.page(PageRequest.first(prefix, 100));
        assertThat(page.entries()).isEmpty();
        assertThat(page.hasMore()).isFalse();
        assertThat(page.cost().itemsEvaluated()).isZero();
        assertThat(page.cost().requests()).isEqualTo(4);
    }
}
