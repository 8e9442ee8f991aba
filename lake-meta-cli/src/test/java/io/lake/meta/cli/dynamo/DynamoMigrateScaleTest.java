package io.lake.meta.cli.dynamo;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.lake.meta.MetaStore;
import io.lake.meta.cli.LakeMetaCommand;
import io.lake.meta.cli.TestDynamo;
import io.lake.meta.dynamo.DynamoLayoutMode;
import io.lake.meta.dynamo.DynamoMetaStore;
import io.lake.meta.testserver.dynamodb.DynamoDbTestServer;
import io.lake.meta.testserver.dynamodb.stats.TableStatistics;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * Throughput, requests per item and the memory bound of {@code dynamo-migrate}, against the
 * in-process test server (which counts every request per table). The command runs in a child JVM
 * whose heap ({@value #HEAP}) is smaller than the table's values, so it can only succeed if its
 * memory does not grow with the table. Default {@value #DEFAULT_ITEMS} items of 1 KiB; set
 * {@code -Dlake.meta.migration.items=N} for a bigger run (the numbers in
 * {@code verification/dynamo-migration.md}). The test prints what it measured.
 */
class DynamoMigrateScaleTest {

    private static final String HEAP = "-Xmx40m";
    private static final int DEFAULT_ITEMS = 2_000;
    private static final int VALUE_BYTES = 1024;
    private static final int PAGE_SIZE = 500;

    private static DynamoDbTestServer server;
    private static DynamoDbClient admin;

    @BeforeAll
    static void startServer() {
        server = DynamoDbTestServer.create().start();
        admin = TestDynamo.client(server, "admin");
    }

    @AfterAll
    static void stopServer() {
        TestDynamo.close(admin, server);
    }

    @Test
    void backfillAndFinalize_inAHeapSmallerThanTheTable() throws Exception {
        int items = Integer.getInteger("lake.meta.migration.items", DEFAULT_ITEMS);
        String legacy = "scale-v1";
        String table = "scale-v2";
        try (MetaStore dual = DynamoMetaStore.builder()
                .client(admin)
                .mode(DynamoLayoutMode.DUAL)
                .legacyTableName(legacy)
                .tableName(table)
                .createTableIfMissing(true)
                .build()) {
            load(legacy, items);
        }
        Map<String, TableStatistics> before = Map.of(
                legacy,
                server.statistics().table(legacy),
                table,
                server.statistics().table(table));

        JsonNode backfill = migrate(legacy, table, "backfill", "--page-size", String.valueOf(PAGE_SIZE), "--json");
        Map<String, Long> backfillRequests = requestsSince(before, legacy, table);
        Map<String, TableStatistics> afterBackfill = Map.of(
                legacy,
                server.statistics().table(legacy),
                table,
                server.statistics().table(table));
        JsonNode finalize = migrate(
                legacy,
                table,
                "finalize",
                "--page-size",
                String.valueOf(PAGE_SIZE),
                "--ack-rollout",
                "--ack-write-quiescence",
                "--json");
        Map<String, Long> finalizeRequests = requestsSince(afterBackfill, legacy, table);

        long backfillTotal =
                backfillRequests.values().stream().mapToLong(Long::longValue).sum();
        long finalizeTotal =
                finalizeRequests.values().stream().mapToLong(Long::longValue).sum();
        System.out.printf(
                "scale: %d items of %d bytes (%.1f MiB of values), page size %d, child heap %s%n",
                items, VALUE_BYTES, items * (double) VALUE_BYTES / (1 << 20), PAGE_SIZE, HEAP);
        System.out.printf(
                "scale: backfill %.1f items/s over %.2f s; %d requests = %.3f per item: %s%n",
                backfill.get("run").get("itemsPerSecond").asDouble(),
                backfill.get("run").get("seconds").asDouble(),
                backfillTotal,
                backfillTotal / (double) items,
                backfillRequests);
        System.out.printf(
                "scale: finalize %d requests = %.3f per item: %s%n",
                finalizeTotal, finalizeTotal / (double) items, finalizeRequests);
        System.out.println("scale: backfill summary " + backfill);
        System.out.println("scale: finalize summary " + finalize);
        assertThat(backfill.get("backfill").get("copied").asLong()).isEqualTo(items);
        assertThat(finalize.get("outcome").asText()).isEqualTo("finalized");
        assertThat(finalize.get("verification").get("legacyItems").asLong()).isEqualTo(items);
        assertThat(backfillTotal / (double) items)
                .as("requests per item of the backfill")
                .isLessThan(0.2);
    }

    private static void load(String legacy, int items) {
        byte[] value = new byte[VALUE_BYTES];
        Arrays.fill(value, (byte) 'x');
        List<WriteRequest> batch = new ArrayList<>();
        for (int i = 0; i < items; i++) {
            String family = List.of("tbl", "lease", "ops", "reg").get(i % 4);
            batch.add(WriteRequest.builder()
                    .putRequest(PutRequest.builder()
                            .item(Map.of(
                                    "k", AttributeValue.fromS(family + "/ns" + (i % 7) + "/k" + i),
                                    "v", AttributeValue.fromB(SdkBytes.fromByteArray(value))))
                            .build())
                    .build());
            if (batch.size() == 25 || i == items - 1) {
                Map<String, List<WriteRequest>> unprocessed = Map.of(legacy, List.copyOf(batch));
                while (!unprocessed.isEmpty()) {
                    Map<String, List<WriteRequest>> request = unprocessed;
                    unprocessed =
                            admin.batchWriteItem(r -> r.requestItems(request)).unprocessedItems();
                }
                batch.clear();
            }
        }
    }

    /**
     * Requests per operation since {@code before}. The server counts a request once per table it
     * names; every migration transaction names both tables, so TransactWriteItems counts once (the
     * larger of the two tables' counts), every other operation names one table and is summed.
     */
    private static Map<String, Long> requestsSince(Map<String, TableStatistics> before, String... tables) {
        Map<String, Long> delta = new TreeMap<>();
        for (String t : tables) {
            server.statistics().table(t).requests().forEach((op, n) -> {
                long d = n - before.get(t).requests(op);
                if (d != 0) {
                    delta.merge(op, d, op.equals("TransactWriteItems") ? Math::max : Long::sum);
                }
            });
        }
        return delta;
    }

    /** Runs {@code lake-meta dynamo-migrate ACTION} in a child JVM with a small heap; answers its JSON summary. */
    private static JsonNode migrate(String legacy, String table, String action, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                HEAP,
                "-cp",
                System.getProperty("java.class.path"),
                LakeMetaCommand.class.getName(),
                "dynamo-migrate",
                action,
                "--legacy-table",
                legacy,
                "--table",
                table,
                "--endpoint",
                server.endpoint().toString(),
                "--region",
                "us-east-1"));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment()
                .keySet()
                .removeIf(name -> name.startsWith("AWS_")
                        || name.startsWith("LAKE_META_")
                        || name.equals("JAVA_TOOL_OPTIONS")
                        || name.equals("JDK_JAVA_OPTIONS"));
        builder.environment().put("AWS_ACCESS_KEY_ID", "scale");
        builder.environment().put("AWS_SECRET_ACCESS_KEY", "scale");
        builder.redirectError(ProcessBuilder.Redirect.DISCARD);
        Process process = builder.start();
        process.getOutputStream().close();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(10, TimeUnit.MINUTES)).isTrue();
        assertThat(process.exitValue())
                .as("dynamo-migrate %s %s: %s", action, List.of(args), out)
                .isZero();
        return new JsonMapper().readTree(out.strip());
    }
}
