package io.lake.meta.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.lake.meta.MetaStore;
import io.lake.meta.dynamo.DynamoMetaStore;
import io.lake.meta.registry.TableId;
import io.lake.meta.registry.TableRegistry;
import io.lake.meta.registry.TableSpec;
import io.lake.meta.testserver.dynamodb.DynamoDbTestServer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The recipe commands on {@code dynamo:TABLE} against the in-process DynamoDB test server, one
 * fresh table per test. The suite's tables have one shard, so a one-shot maintenance tick sees the
 * whole registry; {@link #tablesList_followsTokensAcrossShards} reads a four-shard table. The SDK's
 * default credentials chain finds the test's credentials in system properties, set here and
 * restored after.
 */
class DynamoRecipeCommandsTest extends RecipeCommandsContract {

    private static DynamoDbTestServer server;
    private static DynamoDbClient admin;
    private static int tables;

    private final Map<String, Optional<String>> savedProperties = new HashMap<>();
    private String table = "recipes-cli-" + (++tables);
    private int shards = 1;

    @BeforeAll
    static void startServer() {
        server = DynamoDbTestServer.create().start();
        admin = TestDynamo.client(server, "admin");
    }

    @AfterAll
    static void stopServer() {
        TestDynamo.close(admin, server);
    }

    DynamoRecipeCommandsTest() {
        setProperty("aws.accessKeyId", "AKIDRECIPESCLITEST");
        setProperty("aws.secretAccessKey", "recipes-cli-test-secret");
    }

    @AfterEach
    void restoreProperties() {
        savedProperties.forEach((name, value) -> {
            if (value.isPresent()) {
                System.setProperty(name, value.get());
            } else {
                System.clearProperty(name);
            }
        });
    }

    private void setProperty(String name, String value) {
        savedProperties.putIfAbsent(name, Optional.ofNullable(System.getProperty(name)));
        System.setProperty(name, value);
    }

    @Override
    MetaStore openStore() {
        return DynamoMetaStore.builder()
                .client(admin)
                .tableName(table)
                .shardCount(shards)
                .createTableIfMissing(true)
                .build();
    }

    @Override
    List<String> storeArguments() {
        return List.of(
                "--store", "dynamo:" + table, "--endpoint", server.endpoint().toString(), "--region", "us-east-1");
    }

    @Test
    void tablesList_followsTokensAcrossShards() {
        table = table + "-sharded";
        shards = 4;
        List<String> expected = new ArrayList<>();
        try (MetaStore store = openStore()) {
            TableRegistry registry = TableRegistry.over(store);
            for (int i = 0; i < 12; i++) {
                TableId id = TableId.of("sales", "t" + (char) ('a' + i));
                registry.register(id, TableSpec.of("s3://lake/" + id, "iceberg"));
                expected.add(id + "\tactive\t1\ticeberg\ts3://lake/" + id);
            }
        }

        List<String> rows = listAll("--namespace", "sales", "--limit", "2");

        assertThat(rows).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(listAll("--limit", "5")).as("every namespace").containsExactlyInAnyOrderElementsOf(expected);
    }

    @Test
    void maintenanceRunOnce_onAShardedTable_fillsTheFirstPageAcrossShards_andWritesNothing() {
        table = table + "-sharded";
        shards = 4;
        List<String> expected = new ArrayList<>();
        try (MetaStore store = openStore()) {
            TableRegistry registry = TableRegistry.over(store);
            for (int i = 0; i < 12; i++) {
                TableId id = TableId.of("sales", "t" + (char) ('a' + i));
                registry.register(id, TableSpec.of("s3://lake/" + id, "iceberg"));
                expected.add("maintain " + id + " (generation 1, iceberg, s3://lake/" + id + ")");
            }
        }
        Map<String, String> before = contents();

        Cli.Run run = run("maintenance run", "--once", "--page-size", "5");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        List<String> maintain =
                run.out().lines().filter(l -> l.startsWith("maintain ")).toList();
        assertThat(expected).containsAll(maintain);
        assertThat(maintain)
                .as("12 tables over 4 shards: a page goes on to the next shard until it is full")
                .hasSize(5);
        assertThat(run.out())
                .contains("tick: scanned 5, maintain 5", "wrapped no", "more pages follow")
                .doesNotContain("the first page was empty");
        assertThat(contents()).isEqualTo(before);

        Cli.Run whole = run("maintenance run", "--once");

        assertThat(whole.exitCode()).as(whole.toString()).isZero();
        assertThat(whole.out().lines().filter(l -> l.startsWith("maintain ")).toList())
                .as("a page of 100 holds every shard's tables")
                .containsExactlyInAnyOrderElementsOf(expected);
        assertThat(whole.out()).contains("tick: scanned 12, maintain 12", "wrapped yes");
        assertThat(contents()).isEqualTo(before);
    }
}
