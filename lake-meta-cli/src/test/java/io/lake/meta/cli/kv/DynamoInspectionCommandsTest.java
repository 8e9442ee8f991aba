package io.lake.meta.cli.kv;

import static org.assertj.core.api.Assertions.assertThat;

import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.cli.Cli;
import io.lake.meta.cli.ExitCodes;
import io.lake.meta.cli.TestDynamo;
import io.lake.meta.cli.store.RequestBudget;
import io.lake.meta.dynamo.DynamoMetaStore;
import io.lake.meta.testserver.dynamodb.DynamoDbTestServer;
import io.lake.meta.testserver.dynamodb.fault.ArmedFault;
import io.lake.meta.testserver.dynamodb.fault.Fault;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/**
 * {@code get}, {@code put}, {@code delete}, {@code scan} and {@code copy} (without {@code --prefix}) on {@code dynamo:TABLE}, driven
 * in-process against the in-process DynamoDB test server. The SDK's default credentials chain
 * finds the test's credentials in the {@code aws.accessKeyId} / {@code aws.secretAccessKey}
 * system properties (set here, restored after), and no run may print them.
 */
class DynamoInspectionCommandsTest {

    private static final String NL = System.lineSeparator();
    /** What the CLI's help and the README promise for one DynamoDB request, retries included. */
    private static final Duration REQUEST_BUDGET = RequestBudget.PER_REQUEST;
    /** Opening the table and starting the JVM-local client, beyond the failing request's budget. */
    private static final Duration SLACK = Duration.ofSeconds(3);

    private static final String ACCESS_KEY = "AKIDLAKEMETACLITEST";
    private static final String SECRET_KEY = "lake-meta-cli-test-secret-7f3a9c";

    private static DynamoDbTestServer server;
    private static DynamoDbClient admin;
    private static int tables;

    private final Map<String, Optional<String>> savedProperties = new HashMap<>();
    private final List<Cli.Run> runs = new ArrayList<>();
    private String table;

    @BeforeAll
    static void startServer() {
        server = DynamoDbTestServer.create().start();
        admin = TestDynamo.client(server, "admin");
    }

    @AfterAll
    static void stopServer() {
        TestDynamo.close(admin, server);
    }

    @BeforeEach
    void createTableAndCredentials() {
        setProperty("aws.accessKeyId", ACCESS_KEY);
        setProperty("aws.secretAccessKey", SECRET_KEY);
        table = "cli-table-" + (++tables);
        try (MetaStore store = DynamoMetaStore.builder()
                .client(admin)
                .tableName(table)
                .shardCount(4)
                .createTableIfMissing(true)
                .build()) {
            store.create(MetaKey.of("tbl/sales/orders"), MetaValue.utf8("{\"v\":1}"));
        }
    }

    @AfterEach
    void restorePropertiesAndCheckNoSecretWasPrinted() {
        savedProperties.forEach((name, value) -> {
            if (value.isPresent()) {
                System.setProperty(name, value.get());
            } else {
                System.clearProperty(name);
            }
        });
        server.faults().clear();
        for (Cli.Run run : runs) {
            assertThat(run.out() + run.err())
                    .as(run.toString())
                    .doesNotContain(SECRET_KEY)
                    .doesNotContain(ACCESS_KEY);
        }
    }

    private void setProperty(String name, String value) {
        savedProperties.putIfAbsent(name, Optional.ofNullable(System.getProperty(name)));
        System.setProperty(name, value);
    }

    /** Runs {@code lake-meta COMMAND --store dynamo:TABLE --endpoint E --region us-east-1 ARGS...}. */
    private Cli.Run dynamo(String command, String... args) {
        return run(command, "dynamo:" + table, true, args);
    }

    private Cli.Run run(String command, String store, boolean withRegion, String... args) {
        List<String> all = new ArrayList<>(List.of(
                command, "--store", store, "--endpoint", server.endpoint().toString()));
        if (withRegion) {
            all.addAll(List.of("--region", "us-east-1"));
        }
        all.addAll(List.of(args));
        Cli.Run run = Cli.run(all.toArray(String[]::new));
        runs.add(run);
        return run;
    }

    private Optional<MetaValue> read(String key) {
        try (MetaStore store =
                DynamoMetaStore.builder().client(admin).tableName(table).build()) {
            return store.get(MetaKey.of(key));
        }
    }

    @Test
    void copy_withoutPrefix_fromDynamo_copiesEveryFamilyItLists(@TempDir Path directory) {
        try (MetaStore store =
                DynamoMetaStore.builder().client(admin).tableName(table).build()) {
            store.create(MetaKey.of("lease/leader"), MetaValue.utf8("node-1"));
        }
        Cli.Run copy = Cli.run(
                "copy",
                "--from",
                "dynamo:" + table,
                "--from-endpoint",
                server.endpoint().toString(),
                "--from-region",
                "us-east-1",
                "--to",
                "rocks:" + directory.resolve("target"));
        runs.add(copy);
        assertThat(copy.exitCode()).as(copy.toString()).isZero();
        assertThat(copy.out())
                .startsWith("every family of the source: lease/ tbl/" + NL + "copied 2 keys in ")
                .contains("verified: equal both ways" + NL);
    }

    @Test
    void roundTrip_putGetScanDelete() {
        Cli.Run create = dynamo("put", "tbl/sales/refunds", "r1");
        assertThat(create.exitCode()).as(create.toString()).isZero();
        assertThat(create.out()).isEqualTo("created tbl/sales/refunds" + NL);

        Cli.Run get = dynamo("get", "tbl/sales/orders");
        assertThat(get.exitCode()).as(get.toString()).isZero();
        assertThat(get.out()).isEqualTo("{\"v\":1}" + NL);

        Cli.Run update = dynamo("put", "tbl/sales/orders", "{\"v\":2}", "--expect", "{\"v\":1}");
        assertThat(update.exitCode()).as(update.toString()).isZero();
        assertThat(update.out()).isEqualTo("updated tbl/sales/orders" + NL);

        assertThat(scanAll("tbl/sales/", 100))
                .containsExactlyInAnyOrder("tbl/sales/orders\t{\"v\":2}", "tbl/sales/refunds\tr1");

        Cli.Run delete = dynamo("delete", "tbl/sales/orders", "--expect", "{\"v\":2}");
        assertThat(delete.exitCode()).as(delete.toString()).isZero();
        assertThat(delete.out()).isEqualTo("deleted tbl/sales/orders" + NL);

        Cli.Run absent = dynamo("get", "tbl/sales/orders");
        assertThat(absent.exitCode()).isEqualTo(ExitCodes.NOT_FOUND);
        assertThat(absent.err()).isEqualTo("lake-meta get: tbl/sales/orders is absent" + NL);
        assertThat(read("tbl/sales/orders")).isEmpty();
        assertThat(read("tbl/sales/refunds")).hasValue(MetaValue.utf8("r1"));
    }

    @Test
    void scan_followsTokensAcrossShardsToTheEnd_neverLeavingThePrefix() {
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            String key = "tbl/ns/k" + (char) ('a' + i);
            assertThat(dynamo("put", key, "v" + i).exitCode()).isZero();
            expected.add(key + "\tv" + i);
        }
        assertThat(dynamo("put", "tbl/other/k", "outside").exitCode()).isZero();
        assertThat(dynamo("put", "lease/ns/k", "outside").exitCode()).isZero();

        List<Cli.Run> pages = new ArrayList<>();
        List<String> seen = scanAll("tbl/ns/", 2, pages);

        assertThat(seen).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(pages).allSatisfy(page -> assertThat(entries(page)).hasSizeLessThanOrEqualTo(2));
        assertThat(pages)
                .as("12 keys in pages of 2 over 4 shards: a page goes on to the next shard until it is full,"
                        + " so at most ceil(12/2) + 1 pages")
                .hasSizeBetween(6, 6 + 1);
    }

    @Test
    void scan_fillsTheLimitAcrossEmptyShards_andAllReadsTheWholePrefix() {
        for (int i = 0; i < 12; i++) {
            assertThat(dynamo("put", "tbl/ns/k" + (char) ('a' + i), "v" + i).exitCode())
                    .isZero();
        }

        Cli.Run five = dynamo("scan", "--prefix", "tbl/ns/", "--limit", "5");
        assertThat(five.exitCode()).as(five.toString()).isZero();
        assertThat(entries(five))
                .as("the command follows the shards' tokens until it has 5")
                .hasSize(5);
        assertThat(nextToken(five)).as("more follow").isNotNull();

        Cli.Run rest = dynamo("scan", "--prefix", "tbl/ns/", "--token", nextToken(five), "--all");
        Cli.Run all = dynamo("scan", "--prefix", "tbl/ns/", "--all", "--limit", "2");
        assertThat(entries(rest)).hasSize(7).doesNotContainAnyElementsOf(entries(five));
        assertThat(nextToken(rest)).isNull();
        assertThat(entries(all)).hasSize(12);
        assertThat(nextToken(all)).as("--all reads to the end").isNull();
    }

    /** Every entry under {@code prefix}, page by page, following the tokens to the end. */
    private List<String> scanAll(String prefix, int limit) {
        return scanAll(prefix, limit, new ArrayList<>());
    }

    private List<String> scanAll(String prefix, int limit, List<Cli.Run> pages) {
        List<String> seen = new ArrayList<>();
        String token = null;
        do {
            Cli.Run page = token == null
                    ? dynamo("scan", "--prefix", prefix, "--limit", Integer.toString(limit))
                    : dynamo("scan", "--prefix", prefix, "--limit", Integer.toString(limit), "--token", token);
            assertThat(page.exitCode()).as(page.toString()).isZero();
            seen.addAll(entries(page));
            token = nextToken(page);
            pages.add(page);
        } while (token != null && pages.size() < 100);
        assertThat(token).as("the iteration ended").isNull();
        return seen;
    }

    @Test
    void scan_json_carriesTheNextToken() {
        Cli.Run first = dynamo("scan", "--json", "--prefix", "tbl/", "--limit", "1");

        assertThat(first.exitCode()).as(first.toString()).isZero();
        assertThat(first.out()).startsWith("{\"prefix\":\"tbl/\",\"encoding\":\"utf8\",\"entries\":[");
        assertThat(first.out()).contains("\"nextToken\":\"");
    }

    @Test
    void put_staleExpect_isAConflictThatReportsTheCurrentValue() {
        Cli.Run run = dynamo("put", "tbl/sales/orders", "{\"v\":3}", "--expect", "{\"v\":0}");

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCodes.CONFLICT);
        assertThat(run.err())
                .isEqualTo(
                        "lake-meta put: update conflict: tbl/sales/orders holds {\"v\":1}; nothing was written" + NL);
        assertThat(run.out()).isEmpty();
        assertThat(read("tbl/sales/orders")).hasValue(MetaValue.utf8("{\"v\":1}"));
    }

    @Test
    void put_createOfAPresentKey_andStaleDelete_areConflicts() {
        Cli.Run create = dynamo("put", "tbl/sales/orders", "{\"v\":9}");
        Cli.Run delete = dynamo("delete", "--json", "tbl/sales/orders", "--expect", "{\"v\":0}");

        assertThat(create.exitCode()).isEqualTo(ExitCodes.CONFLICT);
        assertThat(create.err())
                .isEqualTo("lake-meta put: create conflict: tbl/sales/orders already exists and holds"
                        + " {\"v\":1}; nothing was written (to replace it, pass --expect '{\"v\":1}')" + NL);
        assertThat(delete.exitCode()).isEqualTo(ExitCodes.CONFLICT);
        assertThat(delete.out())
                .isEqualTo("{\"key\":\"tbl/sales/orders\",\"operation\":\"delete\",\"applied\":false,"
                        + "\"currentKnown\":true,\"current\":\"{\\\"v\\\":1}\",\"encoding\":\"utf8\"}" + NL);
        assertThat(read("tbl/sales/orders")).hasValue(MetaValue.utf8("{\"v\":1}"));
    }

    @Test
    void missingTable_isAUsageErrorAndCreatesNothing() {
        Cli.Run run = run("get", "dynamo:no-such-table", true, "tbl/a/b");

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err())
                .isEqualTo("lake-meta get: DynamoDB table 'no-such-table' does not exist at "
                        + server.endpoint()
                        + " (region us-east-1): pass the name of an existing lake-meta table, create it as"
                        + " docs/guides/dynamodb.md shows, or let put --create-store create it" + NL);
        assertThat(run.out()).isEmpty();
        assertThat(admin.listTables().tableNames()).doesNotContain("no-such-table");
    }

    @Test
    void putCreateStore_createsTheTable_thenOthersUseIt() {
        String created = "cli-created-" + (++tables);

        Cli.Run put = run("put", "dynamo:" + created, true, "--create-store", "tbl/a/b", "v");
        Cli.Run get = run("get", "dynamo:" + created, true, "tbl/a/b");

        assertThat(put.exitCode()).as(put.toString()).isZero();
        assertThat(get.exitCode()).as(get.toString()).isZero();
        assertThat(get.out()).isEqualTo("v" + NL);
        assertThat(admin.listTables().tableNames()).contains(created);
    }

    @Test
    void tableWithAnotherKeySchema_isAUsageError() {
        admin.createTable(b -> b.tableName("not-lake-meta")
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(AttributeDefinition.builder()
                        .attributeName("id")
                        .attributeType(ScalarAttributeType.S)
                        .build())
                .keySchema(KeySchemaElement.builder()
                        .attributeName("id")
                        .keyType(KeyType.HASH)
                        .build()));

        Cli.Run run = run("get", "dynamo:not-lake-meta", true, "tbl/a/b");

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err())
                .startsWith("lake-meta get: cannot open DynamoDB table 'not-lake-meta' at " + server.endpoint()
                        + " (region us-east-1): DynamoDB table 'not-lake-meta' has key schema")
                .hasLineCount(1);
    }

    @Test
    void regionFromTheSdkChain_whenNoRegionOption() {
        setProperty("aws.region", "us-east-1");

        Cli.Run run = run("get", "dynamo:" + table, false, "tbl/sales/orders");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.out()).isEqualTo("{\"v\":1}" + NL);
    }

    @Test
    void unreachableEndpoint_isAStoreError() throws IOException {
        // the SDK's default retries (9 attempts for DynamoDB) run first: a few seconds
        int closedPort;
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = probe.getLocalPort();
        }
        String endpoint = "http://127.0.0.1:" + closedPort;

        Cli.Run run = Cli.run(
                "get",
                "--store",
                "dynamo:" + table,
                "--endpoint",
                endpoint,
                "--region",
                "us-east-1",
                "tbl/sales/orders");
        runs.add(run);

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCodes.STORE_ERROR);
        assertThat(run.err())
                .startsWith("lake-meta get: cannot open DynamoDB table '" + table + "' at " + endpoint
                        + " (region us-east-1): ")
                .endsWith("(check --endpoint and that the server is running)" + NL)
                .hasLineCount(1)
                .doesNotContain("\tat ");
    }

    @Test
    void serverErrors_areAStoreErrorAndWriteNothing() {
        // the SDK retries every attempt's 500 first, then the command reports the last
        server.faults()
                .arm(Fault.internalServerError()
                        .onOperation("PutItem")
                        .onTable(table)
                        .always());

        Cli.Run run = dynamo("put", "tbl/sales/orders", "{\"v\":2}", "--expect", "{\"v\":1}");

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCodes.STORE_ERROR);
        assertThat(run.err())
                .startsWith("lake-meta put: ")
                .contains("InternalServerError")
                .hasLineCount(1);
        server.faults().clear();
        assertThat(read("tbl/sales/orders")).hasValue(MetaValue.utf8("{\"v\":1}"));
    }

    @Test
    void everyRequestThrottled_givesUpWithinTheRequestBudget() {
        ArmedFault throttle =
                server.faults().arm(Fault.throttling().onTable(table).always());

        long start = System.nanoTime();
        Cli.Run run = dynamo("get", "tbl/sales/orders");
        Duration took = Duration.ofNanos(System.nanoTime() - start);

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCodes.STORE_ERROR);
        assertThat(run.err())
                .startsWith("lake-meta get: cannot open DynamoDB table '" + table + "'")
                .contains("retries included")
                .hasLineCount(1);
        assertThat(throttle.fired()).as("the SDK retried the throttled request").isGreaterThan(1);
        assertThat(took).as(run.toString()).isLessThan(REQUEST_BUDGET.plus(SLACK));
    }

    @Test
    void everyReadThrottled_scanGivesUpWithinTheRequestBudget() {
        // DescribeTable and the layout record answer; the page's Query never does
        ArmedFault throttle = server.faults()
                .arm(Fault.provisionedThroughputExceeded()
                        .onOperation("Query")
                        .onTable(table)
                        .always());

        long start = System.nanoTime();
        Cli.Run run = dynamo("scan", "--prefix", "tbl/sales/");
        Duration took = Duration.ofNanos(System.nanoTime() - start);

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCodes.STORE_ERROR);
        assertThat(run.err())
                .startsWith("lake-meta scan: ")
                .contains("retries included")
                .hasLineCount(1);
        assertThat(throttle.fired()).as("the SDK retried the throttled request").isGreaterThan(1);
        assertThat(took).as(run.toString()).isLessThan(REQUEST_BUDGET.plus(SLACK));
    }

    @Test
    void tokenOfAnotherPrefix_isAUsageError() {
        assertThat(dynamo("put", "tbl/sales/p", "2").exitCode()).isZero();
        String token = nextToken(dynamo("scan", "--prefix", "tbl/sales/", "--limit", "1"));
        assertThat(token).isNotNull();

        Cli.Run run = dynamo("scan", "--prefix", "tbl/ops/", "--limit", "1", "--token", token);

        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).startsWith("lake-meta scan: ").contains("token").hasLineCount(1);
    }

    @Test
    void endpointOrRegionWithRocks_isAUsageError() {
        Cli.Run endpoint = Cli.run("get", "--store", "rocks:unused", "--endpoint", "http://127.0.0.1:8000", "tbl/a/b");
        Cli.Run region = Cli.run("scan", "--store", "rocks:unused", "--region", "us-east-1", "--prefix", "tbl/");

        assertThat(endpoint.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(endpoint.err())
                .isEqualTo("lake-meta get: --endpoint applies only to a dynamo:TABLE store,"
                        + " not to rocks:unused: leave out --endpoint and --region" + NL);
        assertThat(region.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(region.err()).startsWith("lake-meta scan: --region applies only to a dynamo:TABLE store");
    }

    @Test
    void malformedEndpoint_isAUsageError() {
        Cli.Run run = Cli.run("get", "--store", "dynamo:" + table, "--endpoint", "localhost:8000", "tbl/a/b");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err())
                .isEqualTo("lake-meta get: --endpoint 'localhost:8000' is not an http or https URI"
                        + " with a host: write one such as http://127.0.0.1:8000" + NL);
    }

    private static List<String> entries(Cli.Run scan) {
        return scan.out().lines().filter(l -> !l.startsWith("next-token: ")).toList();
    }

    private static String nextToken(Cli.Run scan) {
        return scan.out()
                .lines()
                .filter(l -> l.startsWith("next-token: "))
                .findFirst()
                .map(l -> l.substring("next-token: ".length()))
                .orElse(null);
    }

    @Test
    void watch_onDynamo_printsTheContentsThenAChangeMadeByAnotherWriter() throws Exception {
        AtomicReference<Cli.Run> watching = new AtomicReference<>();
        Thread watcher = new Thread(() -> watching.set(Cli.run(
                "watch",
                "--store",
                "dynamo:" + table,
                "--endpoint",
                server.endpoint().toString(),
                "--region",
                "us-east-1",
                "--prefix",
                "tbl/sales/",
                "--max-events",
                "2")));
        watcher.start();
        // Whether this write lands before the watch's first listing (an initial event) or after it
        // (a change), the watch prints two events: the orders already there, and this one.
        try (MetaStore store =
                DynamoMetaStore.builder().client(admin).tableName(table).build()) {
            store.create(MetaKey.of("tbl/sales/refunds"), MetaValue.utf8("r1"));
        }
        watcher.join(Duration.ofSeconds(60).toMillis());

        Cli.Run run = watching.get();
        assertThat(run).as("the watch ended after its two events").isNotNull();
        runs.add(run);
        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.out())
                .contains("initial tbl/sales/orders\t{\"v\":1}" + NL)
                .contains("tbl/sales/refunds\tr1" + NL);
    }
}
