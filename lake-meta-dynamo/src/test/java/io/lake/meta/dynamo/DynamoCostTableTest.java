package io.lake.meta.dynamo;

import static org.assertj.core.api.Assertions.assertThat;

import io.lake.meta.GuardedMutation;
import io.lake.meta.KeyPrefix;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaValue;
import io.lake.meta.Mutation;
import io.lake.meta.testserver.dynamodb.DynamoDbTestServer;
import io.lake.meta.testserver.dynamodb.stats.TableStatistics;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Measures the cost of each call on the in-process server (requests, items evaluated, read and
 * write capacity) and prints the table recorded in verification/dynamo-v2-layout.md. Each row is
 * also asserted, so a change in cost fails here first.
 */
class DynamoCostTableTest extends DynamoTestSupport {

    private static final MetaKey GUARD = MetaKey.of("lease/leader");
    private static final MetaKey K = MetaKey.of("tbl/ns1/orders");
    private static final MetaValue SMALL = MetaValue.utf8("v1");
    private static final MetaValue SMALL2 = MetaValue.utf8("v2");
    private static final MetaValue BIG = MetaValue.of(new byte[5000]);

    private record Row(String call, String requests, long evaluated, double rcu, double wcu) {
        String markdown() {
            return "| " + call + " | " + requests + " | " + evaluated + " | " + rcu + " | " + wcu + " |";
        }
    }

    private DynamoDbTestServer server;
    private DynamoTableStore store;
    private final List<Row> rows = new ArrayList<>();

    private Row measure(String call, Runnable action) {
        String table = tableOf(store);
        TableStatistics before = server.statistics().table(table);
        action.run();
        TableStatistics after = server.statistics().table(table);
        Row row = new Row(
                call,
                requestsSince(before, server, table).toString(),
                after.itemsEvaluated() - before.itemsEvaluated(),
                after.readCapacityUnits() - before.readCapacityUnits(),
                after.writeCapacityUnits() - before.writeCapacityUnits());
        rows.add(row);
        return row;
    }

    @Test
    void costPerCall_measuredAndPinned() {
        server = TARGET.requireInProcessServer();
        store = openNew(client(), "cost-table", null);

        assertThat(measure("get (absent)", () -> store.get(K)))
                .isEqualTo(new Row("get (absent)", "{GetItem=1}", 0, 1.0, 0.0));
        assertThat(measure("create (small value)", () -> store.create(K, SMALL)))
                .isEqualTo(new Row("create (small value)", "{PutItem=1}", 1, 0.0, 1.0));
        assertThat(measure("create conflict", () -> store.create(K, SMALL2)).wcu())
                .isEqualTo(1.0);
        assertThat(measure("get (small)", () -> store.get(K)).rcu()).isEqualTo(1.0);
        assertThat(measure("update (small → 5000 B)", () -> store.update(K, SMALL, BIG))
                        .wcu())
                .isEqualTo(5.0);
        assertThat(measure("get (5000 B)", () -> store.get(K)).rcu()).isEqualTo(2.0);
        assertThat(measure("update conflict (5000 B held)", () -> store.update(K, SMALL, SMALL2))
                        .requests())
                .isEqualTo("{PutItem=1}");
        assertThat(measure("update (5000 B → small)", () -> store.update(K, BIG, SMALL))
                        .wcu())
                .isEqualTo(5.0);
        store.create(GUARD, SMALL);
        Row guarded = measure(
                "applyGuarded update (small)",
                () -> store.applyGuarded(new GuardedMutation(GUARD, SMALL, Mutation.update(K, SMALL, SMALL2))));
        assertThat(guarded.requests()).isEqualTo("{TransactWriteItems=1}");
        assertThat(guarded.wcu()).as("2 items x 2 (prepare + commit)").isEqualTo(4.0);
        Row rejected = measure(
                "applyGuarded, guard rejected",
                () -> store.applyGuarded(new GuardedMutation(GUARD, SMALL2, Mutation.delete(K, SMALL2))));
        assertThat(rejected.requests()).isEqualTo("{TransactWriteItems=1}");
        assertThat(measure("delete (small)", () -> store.delete(K, SMALL2)).requests())
                .isEqualTo("{DeleteItem=1}");
        for (int i = 0; i < 40; i++) {
            store.create(MetaKey.of("tbl/ns2/k" + i), SMALL);
        }
        Row page = measure(
                "page, limit 10 (40 keys on 16 shards: shard after shard until 10 are read)",
                () -> store.page(KeyPrefix.of("tbl/ns2/"), 10));
        assertThat(page.requests()).as("one Query per shard read").isEqualTo("{Query=4}");
        assertThat(page.evaluated()).isEqualTo(10);
        assertThat(page.rcu()).as("each Query of a few small items costs 1 RCU").isEqualTo(4.0);
        Row empty = measure(
                "page of an empty prefix (every shard, in one call)", () -> store.page(KeyPrefix.of("tbl/none/"), 10));
        assertThat(empty)
                .isEqualTo(new Row("page of an empty prefix (every shard, in one call)", "{Query=16}", 0, 16.0, 0.0));

        System.out.println("| call | requests | items evaluated | RCU | WCU |");
        System.out.println("|---|---|---|---|---|");
        rows.forEach(r -> System.out.println(r.markdown()));
    }
}
