package io.lake.meta.bench;

import io.lake.meta.GuardedMutation;
import io.lake.meta.KeyPrefix;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.Page;
import io.lake.meta.PageRequest;
import io.lake.meta.Transaction;
import io.lake.meta.dynamo.DynamoMetaStore;
import io.lake.meta.testserver.dynamodb.DynamoDbTestServer;
import io.lake.meta.testserver.dynamodb.stats.TableStatistics;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;

/**
 * What each operation costs on DynamoDB, counted by the in-process test server (requests per
 * operation, capacity, items evaluated and returned): not a timing, so the figures are exact on
 * any machine. The listings run on a table holding ten other families besides the listed one,
 * and are compared with what a v1-style listing (a Scan of the whole table with a filter on the
 * key) evaluates for the same entries.
 */
final class DynamoCostModel {

    private static final int SHARDS = 16;
    private static final int PAGE_LIMIT = 1000;
    private static final int OTHER_FAMILIES = 10;
    private static final int KEYS_PER_OTHER_FAMILY = 200;

    private final DynamoDbTestServer server;
    private final DynamoDbClient client;
    private final List<BenchRow> rows = new ArrayList<>();

    private DynamoCostModel(DynamoDbTestServer server, DynamoDbClient client) {
        this.server = server;
        this.client = client;
    }

    /** Measures every operation, and full listings of a 5-key family and of one of {@code familyKeys} keys. */
    static List<BenchRow> rows(int familyKeys) {
        try (DynamoDbTestServer server = DynamoDbTestServer.create().start();
                DynamoDbClient client = client(server.endpoint(), server.region())) {
            DynamoCostModel model = new DynamoCostModel(server, client);
            model.operations();
            model.listing(5);
            if (familyKeys != 5) {
                model.listing(familyKeys);
            }
            return model.rows;
        }
    }

    private static DynamoDbClient client(URI endpoint, String region) {
        return DynamoDbClient.builder()
                .endpointOverride(endpoint)
                .region(Region.of(region))
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("bench", "bench")))
                .httpClientBuilder(UrlConnectionHttpClient.builder())
                .build();
    }

    private MetaStore open(String table) {
        return DynamoMetaStore.builder()
                .client(client)
                .tableName(table)
                .shardCount(SHARDS)
                .createTableIfMissing(true)
                .build();
    }

    private void operations() {
        String table = "bench-operations";
        try (MetaStore store = open(table)) {
            MetaKey key = MetaKey.of("tbl/sales/orders");
            MetaKey lease = MetaKey.of("lease/catalog");
            MetaValue v1 = BenchValue.seeded(1).meta();
            MetaValue v2 = BenchValue.seeded(2).meta();
            MetaValue v3 = BenchValue.seeded(3).meta();
            perOperation(table, "create", "PutItem", () -> store.create(key, v1));
            perOperation(table, "CAS (update)", "PutItem", () -> store.update(key, v1, v2));
            perOperation(table, "CAS conflict (update from stale bytes)", "PutItem", () -> store.update(key, v1, v3));
            perOperation(table, "point read", "GetItem", () -> store.get(key));
            store.create(lease, v1);
            perOperation(
                    table,
                    "guarded mutation",
                    "TransactWriteItems",
                    () -> store.applyGuarded(
                            new GuardedMutation(lease, v1, io.lake.meta.Mutation.update(key, v2, v3))));
            perOperation(
                    table,
                    "transaction of 3 keys",
                    "TransactWriteItems",
                    () -> store.transact(Transaction.builder()
                            .requireHolds(lease, v1)
                            .update(key, v3, v1)
                            .create(MetaKey.of("tbl/sales/new"), v1)
                            .build()));
            perOperation(table, "delete", "DeleteItem", () -> store.delete(key, v1));
        }
    }

    private void perOperation(String table, String operation, String request, Supplier<?> call) {
        TableStatistics before = server.statistics().table(table);
        var unused = call.get(); // what the call answers is not counted, its requests are
        TableStatistics after = server.statistics().table(table);
        long requests = total(after) - total(before);
        long expected = after.requests(request) - before.requests(request);
        String note = String.format(
                Locale.ROOT,
                "%d %s; %.1f RCU, %.1f WCU",
                expected,
                request,
                after.readCapacityUnits() - before.readCapacityUnits(),
                after.writeCapacityUnits() - before.writeCapacityUnits());
        rows.add(new BenchRow(
                "DynamoDB " + operation + ": requests",
                "requests",
                requests,
                "one request",
                1,
                Target.atMost(1.0),
                note));
    }

    private static long total(TableStatistics statistics) {
        return statistics.requests().values().stream()
                .mapToLong(Long::longValue)
                .sum();
    }

    private void listing(int n) {
        String table = "bench-listing-" + n;
        try (MetaStore store = open(table)) {
            for (int f = 0; f < OTHER_FAMILIES; f++) {
                load(store, "other" + f, KEYS_PER_OTHER_FAMILY);
            }
            load(store, "listed", n);
            TableStatistics before = server.statistics().table(table);
            int pageCalls = 0;
            long returned = 0;
            long evaluated = 0;
            long pageRequests = 0;
            Optional<PageRequest> request = Optional.of(PageRequest.first(KeyPrefix.of("listed/"), PAGE_LIMIT));
            while (request.isPresent()) {
                Page page = store.page(request.get());
                pageCalls++;
                returned += page.entries().size();
                evaluated += page.cost().itemsEvaluated();
                pageRequests += page.cost().requests();
                request = request.get().next(page);
            }
            TableStatistics after = server.statistics().table(table);
            long queries = after.requests("Query") - before.requests("Query");
            long serverEvaluated = after.itemsEvaluated() - before.itemsEvaluated();
            if (returned != n || pageRequests != queries || evaluated != serverEvaluated) {
                throw new IllegalStateException("listing " + n + " keys: returned " + returned + ", the pages reported "
                        + pageRequests + " requests and " + evaluated + " items evaluated, the server counted "
                        + queries + " and " + serverEvaluated);
            }
            int fullPages = (n + PAGE_LIMIT - 1) / PAGE_LIMIT;
            String family = String.format(
                    Locale.ROOT,
                    "DynamoDB full listing of a %,d-key family, %d shards, limit %d",
                    n,
                    SHARDS,
                    PAGE_LIMIT);
            rows.add(new BenchRow(
                    family + ": page calls",
                    "calls",
                    pageCalls,
                    "ceil(n/limit) + 1",
                    fullPages + 1,
                    Target.atMost(1.0),
                    ""));
            rows.add(new BenchRow(
                    family + ": Query requests",
                    "requests",
                    queries,
                    "shards + ceil(n/limit)",
                    SHARDS + fullPages,
                    Target.atMost(1.0),
                    String.format(Locale.ROOT, "%.1f RCU", after.readCapacityUnits() - before.readCapacityUnits())));
            double v1 = v1ScanEvaluatedPerReturned(table);
            rows.add(new BenchRow(
                    family + ": items evaluated per item returned",
                    "items",
                    (double) evaluated / n,
                    "every item listed once",
                    1,
                    Target.atMost(1.0),
                    String.format(Locale.ROOT, "a v1-style Scan with a filter evaluates %.1f per item returned", v1)));
        }
    }

    private static void load(MetaStore store, String family, int count) {
        List<MetaKey> batch = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            batch.add(MetaKey.of(family + "/table-" + i));
            if (batch.size() == 25 || i == count - 1) {
                Transaction.Builder transaction = Transaction.builder();
                batch.forEach(key -> transaction.create(
                        key, BenchValue.seeded(key.hashCode()).meta()));
                if (!store.transact(transaction.build()).isApplied()) {
                    throw new IllegalStateException("loading " + family + " did not apply");
                }
                batch.clear();
            }
        }
    }

    /** A v1-style listing: Scan the whole table, keep the keys under the prefix with a filter. */
    private double v1ScanEvaluatedPerReturned(String table) {
        long scanned = 0;
        long kept = 0;
        Map<String, AttributeValue> start = null;
        do {
            Map<String, AttributeValue> from = start;
            ScanResponse response = client.scan(r -> r.tableName(table)
                    .consistentRead(true)
                    .filterExpression("begins_with(#k, :p)")
                    .expressionAttributeNames(Map.of("#k", "sk"))
                    .expressionAttributeValues(Map.of(":p", AttributeValue.fromS("listed/")))
                    .exclusiveStartKey(from));
            scanned += response.scannedCount();
            kept += response.count();
            start = response.hasLastEvaluatedKey()
                            && !response.lastEvaluatedKey().isEmpty()
                    ? response.lastEvaluatedKey()
                    : null;
        } while (start != null);
        return kept == 0 ? Double.NaN : (double) scanned / kept;
    }
}
