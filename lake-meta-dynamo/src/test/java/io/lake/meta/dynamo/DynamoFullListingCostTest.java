package io.lake.meta.dynamo;

import static org.assertj.core.api.Assertions.assertThat;

import io.lake.meta.Entry;
import io.lake.meta.KeyPrefix;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaValue;
import io.lake.meta.Page;
import io.lake.meta.PageRequest;
import io.lake.meta.Transaction;
import io.lake.meta.testserver.dynamodb.DynamoDbTestServer;
import io.lake.meta.testserver.dynamodb.stats.TableStatistics;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * A full listing of a family of n keys costs at most ceil(n/limit) + 1 page calls and at most
 * shards + ceil(n/limit) Queries: a page that exhausts a shard before it is full goes on to the
 * next shard of the family in the same call, asking each shard only for what the page still
 * lacks. Each page's {@code PageCost} adds up every request it made, as the server counted them.
 */
class DynamoFullListingCostTest extends DynamoTestSupport {

    private DynamoDbTestServer server;
    private DynamoDbClient client;

    @BeforeEach
    void inProcessServer() {
        server = TARGET.requireInProcessServer();
        client = client();
    }

    @ParameterizedTest(name = "{0} keys, limit {1}, {2} shards")
    @CsvSource({"5, 1000, 16", "0, 100, 4", "60, 1, 16", "200, 7, 16", "2500, 1000, 16", "40, 10, 1"})
    void fullListing_staysWithinItsPageAndRequestBounds(int n, int limit, int shards) {
        DynamoTableStore store = openNew(client, "listing-cost", shards);
        load(store, "noise", 300);
        load(store, "tbl", n);
        String table = tableOf(store);

        TableStatistics start = server.statistics().table(table);
        List<MetaKey> returned = new ArrayList<>();
        int pageCalls = 0;
        Optional<PageRequest> request = Optional.of(PageRequest.first(KeyPrefix.of("tbl/"), limit));
        while (request.isPresent()) {
            TableStatistics before = server.statistics().table(table);
            Page page = store.page(request.get());
            TableStatistics after = server.statistics().table(table);
            pageCalls++;
            assertThat(page.entries()).hasSizeLessThanOrEqualTo(limit);
            assertThat(page.cost().requests())
                    .as("requests of page %d", pageCalls)
                    .isEqualTo(after.requests("Query") - before.requests("Query"));
            assertThat(page.cost().itemsEvaluated())
                    .as("items evaluated by page %d", pageCalls)
                    .isEqualTo(after.itemsEvaluated() - before.itemsEvaluated())
                    .isLessThanOrEqualTo(limit);
            assertThat(page.cost().capacityUnits())
                    .as("capacity of page %d", pageCalls)
                    .isEqualTo(after.readCapacityUnits() - before.readCapacityUnits());
            page.entries().stream().map(Entry::key).forEach(returned::add);
            request = request.get().next(page);
        }

        int fullPages = (n + limit - 1) / limit;
        long queries = server.statistics().table(table).requests("Query") - start.requests("Query");
        assertThat(returned)
                .hasSize(n)
                .doesNotHaveDuplicates()
                .allMatch(k -> k.family().equals("tbl"));
        assertThat(pageCalls)
                .as("page calls for %d keys in pages of %d", n, limit)
                .isLessThanOrEqualTo(fullPages + 1);
        assertThat(queries).as("Queries for %d keys on %d shards", n, shards).isLessThanOrEqualTo(shards + fullPages);
        assertThat(server.statistics().table(table).itemsEvaluated() - start.itemsEvaluated())
                .as("items evaluated: each listed key once, never another family's")
                .isEqualTo(n);
    }

    private static void load(DynamoTableStore store, String family, int count) {
        List<MetaKey> batch = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            batch.add(MetaKey.of(family + "/k" + i));
            if (batch.size() == 25 || i == count - 1) {
                Transaction.Builder transaction = Transaction.builder();
                batch.forEach(key -> transaction.create(key, MetaValue.utf8("value of " + key)));
                assertThat(store.transact(transaction.build()).isApplied()).isTrue();
                batch.clear();
            }
        }
    }
}
