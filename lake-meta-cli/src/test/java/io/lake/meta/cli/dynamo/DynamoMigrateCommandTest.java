package io.lake.meta.cli.dynamo;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.WriteBarrierException;
import io.lake.meta.WriteResult;
import io.lake.meta.cli.Cli;
import io.lake.meta.cli.ExitCodes;
import io.lake.meta.cli.LakeMetaCommand;
import io.lake.meta.cli.TestDynamo;
import io.lake.meta.dynamo.DynamoLayoutMode;
import io.lake.meta.dynamo.DynamoMetaStore;
import io.lake.meta.testserver.dynamodb.DynamoDbTestServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * {@code lake-meta dynamo-migrate} in-process against the in-process DynamoDB test server: a
 * migration of thousands of keys while dual writers keep writing, validation before any request,
 * the exit codes, configuration from the environment (in a child JVM), and the flag form of
 * earlier releases, deprecated: each of its actions still runs, with a warning. No run may print
 * the test's credentials.
 */
class DynamoMigrateCommandTest {

    private static final String ACCESS_KEY = "AKIDLAKEMETAMIGRATE";
    private static final String SECRET_KEY = "lake-meta-migrate-test-secret-41c2";
    private static final List<String> FAMILIES = List.of("tbl", "lease", "ops", "reg");
    private static final JsonMapper JSON = new JsonMapper();

    private static DynamoDbTestServer server;
    private static DynamoDbClient admin;
    private static int tables;

    private final Map<String, Optional<String>> savedProperties = new HashMap<>();
    private final List<Cli.Run> runs = new ArrayList<>();
    private final List<MetaStore> stores = new ArrayList<>();
    private String legacy;
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
    void tablesAndCredentials() {
        setProperty("aws.accessKeyId", ACCESS_KEY);
        setProperty("aws.secretAccessKey", SECRET_KEY);
        legacy = "mig-cli-v1-" + (++tables);
        table = "mig-cli-v2-" + tables;
        store(DynamoLayoutMode.V1).close(); // creates the legacy table
    }

    @AfterEach
    void restore() {
        stores.forEach(MetaStore::close);
        savedProperties.forEach((name, value) -> {
            if (value.isPresent()) {
                System.setProperty(name, value.get());
            } else {
                System.clearProperty(name);
            }
        });
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

    private MetaStore store(DynamoLayoutMode mode) {
        MetaStore store = DynamoMetaStore.builder()
                .client(admin)
                .mode(mode)
                .legacyTableName(legacy)
                .tableName(table)
                .shardCount(4)
                .createTableIfMissing(true)
                .build();
        stores.add(store);
        return store;
    }

    /** Runs {@code lake-meta dynamo-migrate ACTION --legacy-table ... ARGS}. */
    private Cli.Run migrate(String action, String... args) {
        List<String> all = new ArrayList<>(List.of(
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
        all.addAll(List.of(args));
        Cli.Run run = Cli.run(all.toArray(String[]::new));
        runs.add(run);
        return run;
    }

    /** Runs the deprecated flag form, {@code lake-meta dynamo-migrate --legacy-table ... ARGS}, with the action among ARGS. */
    private Cli.Run migrateFlagForm(String... args) {
        List<String> all = new ArrayList<>(List.of(
                "dynamo-migrate",
                "--legacy-table",
                legacy,
                "--table",
                table,
                "--endpoint",
                server.endpoint().toString(),
                "--region",
                "us-east-1"));
        all.addAll(List.of(args));
        Cli.Run run = Cli.run(all.toArray(String[]::new));
        runs.add(run);
        return run;
    }

    /** The flag form's one-line warning, naming what to write instead, and nothing else on stderr. */
    private static void assertDeprecationWarning(Cli.Run run, String deprecated, String action) {
        assertThat(run.err().lines().filter(line -> line.contains("deprecated")).toList())
                .as(run.toString())
                .containsExactly(
                        "lake-meta dynamo-migrate: warning: " + deprecated + " is deprecated and goes in the next"
                                + " release: write lake-meta dynamo-migrate " + action + " with the same options");
    }

    private static JsonNode summary(Cli.Run run) throws Exception {
        String[] lines = run.out().strip().split("\\R");
        assertThat(lines).as("stdout holds exactly one JSON summary: %s", run).hasSize(1);
        return JSON.readTree(lines[0]);
    }

    private void load(int perFamily) {
        List<WriteRequest> all = new ArrayList<>();
        for (String family : FAMILIES) {
            for (int i = 0; i < perFamily; i++) {
                all.add(WriteRequest.builder()
                        .putRequest(PutRequest.builder()
                                .item(Map.of(
                                        "k", AttributeValue.fromS(family + "/k" + i),
                                        "v", AttributeValue.fromB(SdkBytes.fromUtf8String("legacy " + i))))
                                .build())
                        .build());
            }
        }
        for (int i = 0; i < all.size(); i += 25) {
            Map<String, List<WriteRequest>> unprocessed = Map.of(legacy, all.subList(i, Math.min(all.size(), i + 25)));
            while (!unprocessed.isEmpty()) {
                Map<String, List<WriteRequest>> request = unprocessed;
                unprocessed = admin.batchWriteItem(r -> r.requestItems(request)).unprocessedItems();
            }
        }
    }

    @Test
    void migratesThousandsOfKeys_whileDualWritersKeepWriting_andNoAcknowledgedWriteIsLost() throws Exception {
        load(500);
        MetaStore dual = store(DynamoLayoutMode.DUAL);
        Map<MetaKey, MetaValue> acknowledged = new ConcurrentHashMap<>();
        AtomicBoolean stop = new AtomicBoolean();
        CompletableFuture<Integer> writer = CompletableFuture.supplyAsync(() -> {
            int writes = 0;
            for (int round = 0; !stop.get() || round < 1; round++) {
                for (int i = 0; i < 40; i++) {
                    MetaKey key = MetaKey.of("tbl/k" + i);
                    MetaValue current = acknowledged.getOrDefault(key, MetaValue.utf8("legacy " + i));
                    MetaValue next = MetaValue.utf8("round " + round);
                    while (true) {
                        try {
                            assertThat(dual.update(key, current, next)).isEqualTo(WriteResult.applied());
                            break;
                        } catch (WriteBarrierException e) {
                            Thread.onSpinWait(); // the finalize window: retry
                        }
                    }
                    acknowledged.put(key, next);
                    writes++;
                }
            }
            return writes;
        });

        Cli.Run backfill = migrate("backfill", "--page-size", "300", "--json");
        Cli.Run finalize =
                migrate("finalize", "--page-size", "500", "--ack-rollout", "--ack-write-quiescence", "--json");
        stop.set(true);
        int writes = writer.get(60, TimeUnit.SECONDS);

        assertThat(backfill.exitCode()).as(backfill.toString()).isZero();
        JsonNode b = summary(backfill);
        assertThat(b.get("outcome").asText()).isEqualTo("backfill-done");
        assertThat(b.get("backfill").get("done").asBoolean()).isTrue();
        assertThat(b.get("backfill").get("scanned").asLong()).isEqualTo(2000);
        assertThat(b.get("run").get("itemsPerSecond").asDouble()).isPositive();
        assertThat(backfill.err()).as("the progress bar").contains("backfill").contains("items");
        assertThat(finalize.exitCode()).as(finalize.toString()).isZero();
        JsonNode f = summary(finalize);
        assertThat(f.get("outcome").asText()).isEqualTo("finalized");
        assertThat(f.get("verification").get("clean").asBoolean()).isTrue();
        assertThat(f.get("verification").get("legacyItems").asLong()).isEqualTo(2000);
        assertThat(f.get("completion").get("digest").asText()).startsWith("sha256-sum:");
        assertThat(writes).isPositive();
        Cli.Run horizon = migrate("declare-horizon", "--ack-stores-restarted", "--json");
        assertThat(horizon.exitCode()).as(horizon.toString()).isZero();
        assertThat(summary(horizon)
                        .get("completion")
                        .get("rollbackHorizonPassed")
                        .asBoolean())
                .isTrue();
        MetaStore v2 = DynamoMetaStore.builder().client(admin).tableName(table).build();
        stores.add(v2);
        for (Map.Entry<MetaKey, MetaValue> e : acknowledged.entrySet()) {
            assertThat(v2.get(e.getKey())).as("v2 copy of %s", e.getKey()).contains(e.getValue());
        }
        Cli.Run again = migrate("finalize", "--page-size", "500", "--ack-rollout", "--ack-write-quiescence", "--json");
        assertThat(again.exitCode()).isZero();
        assertThat(summary(again).get("outcome").asText()).isEqualTo("already-finalized");
    }

    @Test
    void invalidConfiguration_isRefusedBeforeAnyRequest() {
        String closed = "http://127.0.0.1:1"; // nothing listens: a request would fail differently
        String[] tables = {"--legacy-table", "a-v1", "--table", "b-v2"};
        List<List<String>> bad = List.of(
                List.of("backfill", "--legacy-table", "same", "--table", "same", "--page-size", "10"),
                with("backfill", tables, "--page-size", "0"),
                with("backfill", tables, "--page-size", "10001"),
                with("backfill", tables),
                with("backfill", tables, "--page-size", "10", "--shards", "0"),
                with("backfill", tables, "--page-size", "10", "--max-pages", "0"),
                List.of("backfill", "--legacy-table", "x", "--table", "b-v2", "--page-size", "10"),
                with("finalize", tables, "--page-size", "10"),
                with("finalize", tables, "--page-size", "10", "--ack-rollout"),
                with("backfill", tables, "--page-size", "abc"),
                List.of("backfill", "--table", "b-v2", "--page-size", "10"),
                with("declare-horizon", tables),
                with("rollback", tables, "--ack-write-quiescence"),
                with("rollback", tables, "--page-size", "10"),
                // options an action does not take: picocli refuses them
                with("status", tables, "--page-size", "10"),
                with("backfill", tables, "--page-size", "10", "--ack-rollout"),
                with("status", tables, "--ack-stores-restarted"),
                with("rollback", tables, "--page-size", "10", "--ack-write-quiescence", "--max-pages", "1"),
                with("release-barrier", tables, "--ack-write-quiescence"),
                with("declare-horizon", tables, "--ack-stores-restarted", "--page-size", "10"),
                // options before the action: they would not reach it
                List.of("--legacy-table", "a-v1", "status", "--table", "b-v2"),
                // the flag form, deprecated: two actions, or an option its action does not take
                with("--status", tables, "--finalize"),
                with("--rollback", tables, "--finalize", "--page-size", "10"),
                with("--status", tables, "--page-size", "10"),
                with("--status", tables, "--ack-stores-restarted"),
                with("--finalize", tables, "--page-size", "10"));
        for (List<String> args : bad) {
            List<String> all = new ArrayList<>(List.of("dynamo-migrate"));
            all.addAll(args);
            all.addAll(List.of("--endpoint", closed, "--region", "us-east-1"));
            Cli.Run run = Cli.run(all.toArray(String[]::new));
            runs.add(run);
            assertThat(run.exitCode()).as("%s: %s", args, run).isEqualTo(ExitCodes.USAGE);
            assertThat(run.err()).as("%s", args).doesNotContain("127.0.0.1:1").doesNotContainIgnoringCase("connect");
        }
        Cli.Run endpoint = Cli.run(
                "dynamo-migrate",
                "backfill",
                "--legacy-table",
                "a-v1",
                "--table",
                "b-v2",
                "--page-size",
                "10",
                "--endpoint",
                "not a url");
        assertThat(endpoint.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(endpoint.err()).contains("--endpoint 'not a url' is not an http or https URI");
        Cli.Run acks = Cli.run(
                "dynamo-migrate",
                "finalize",
                "--legacy-table",
                "a-v1",
                "--table",
                "b-v2",
                "--page-size",
                "10",
                "--endpoint",
                closed,
                "--region",
                "us-east-1");
        assertThat(acks.err())
                .contains("--ack-rollout")
                .contains("--ack-write-quiescence")
                .contains("nothing was done");
        Cli.Run notTaken = Cli.run(
                "dynamo-migrate",
                "status",
                "--legacy-table",
                "a-v1",
                "--table",
                "b-v2",
                "--page-size",
                "10",
                "--endpoint",
                closed,
                "--region",
                "us-east-1");
        assertThat(notTaken.err()).startsWith("lake-meta dynamo-migrate status: Unknown options: '--page-size', '10'");
        Cli.Run before = Cli.run("dynamo-migrate", "--legacy-table", "a-v1", "status", "--table", "b-v2");
        assertThat(before.err()).contains("--legacy-table before the action: give the options after it");
        Cli.Run noAction = Cli.run(
                "dynamo-migrate",
                "--legacy-table",
                "a-v1",
                "--table",
                "b-v2",
                "--endpoint",
                closed,
                "--region",
                "us-east-1");
        assertThat(noAction.err())
                .as("no action and no --page-size: a backfill, which needs it")
                .contains("--page-size is required");
    }

    private static List<String> with(String action, String[] tables, String... args) {
        List<String> all = new ArrayList<>(List.of(action));
        all.addAll(List.of(tables));
        all.addAll(List.of(args));
        return all;
    }

    @Test
    void aHeldBarrier_isShownByStatus_refusesFinalize_andIsReleased() throws Exception {
        load(3);
        store(DynamoLayoutMode.DUAL).close();
        admin.putItem(r -> r.tableName(table)
                .item(Map.of(
                        "pk",
                        AttributeValue.fromS("#migration"),
                        "sk",
                        AttributeValue.fromS("#barrier"),
                        "holder",
                        AttributeValue.fromS("finalizer-that-stopped"),
                        "installed_at",
                        AttributeValue.fromS("2026-01-01T00:00:00Z"))));

        JsonNode status = summary(migrate("status", "--json"));
        assertThat(status.get("barrier").get("holder").asText()).isEqualTo("finalizer-that-stopped");
        assertThat(status.get("completion").isNull()).isTrue();
        Cli.Run refused =
                migrate("finalize", "--page-size", "100", "--ack-rollout", "--ack-write-quiescence", "--json");
        assertThat(refused.exitCode()).as(refused.toString()).isEqualTo(DynamoMigrateCommand.BARRIER_HELD);
        assertThat(summary(refused).get("outcome").asText()).isEqualTo("barrier-held");
        assertThat(refused.err()).contains("finalizer-that-stopped").contains("dynamo-migrate release-barrier");

        Cli.Run released = migrate("release-barrier", "--json");
        assertThat(released.exitCode()).isZero();
        assertThat(summary(released).get("outcome").asText()).isEqualTo("barrier-released");
        assertThat(summary(migrate("release-barrier", "--json")).get("outcome").asText())
                .isEqualTo("no-barrier");
        Cli.Run finalize = migrate("finalize", "--page-size", "100", "--ack-rollout", "--ack-write-quiescence");
        assertThat(finalize.exitCode()).as(finalize.toString()).isZero();
        assertThat(finalize.out()).contains("outcome: finalized");
    }

    @Test
    void aVerificationThatFindsDifferences_exits5_listingTheKeys_andPublishesNothing() throws Exception {
        load(3);
        store(DynamoLayoutMode.DUAL).close();
        assertThat(migrate("backfill", "--page-size", "100").exitCode()).isZero();
        admin.putItem(r -> r.tableName(table)
                .item(Map.of(
                        "pk",
                        AttributeValue.fromS("tbl#0"),
                        "sk",
                        AttributeValue.fromS("tbl/only-in-v2"),
                        "v",
                        AttributeValue.fromB(SdkBytes.fromUtf8String("x")))));

        Cli.Run run = migrate("finalize", "--page-size", "100", "--ack-rollout", "--ack-write-quiescence", "--json");

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(DynamoMigrateCommand.VERIFICATION_FAILED);
        JsonNode s = summary(run);
        assertThat(s.get("outcome").asText()).isEqualTo("verification-failed");
        assertThat(s.get("verification").get("differenceCount").asLong()).isEqualTo(1);
        assertThat(s.get("verification").get("differences").get(0).get("key").asText())
                .isEqualTo("tbl/only-in-v2");
        assertThat(s.get("verification").get("differences").get(0).get("kind").asText())
                .isEqualTo("MISSING_IN_LEGACY");
        assertThat(summary(migrate("status", "--json")).get("completion").isNull())
                .isTrue();
    }

    @Test
    void rollback_untilTheHorizon_thenRefused() throws Exception {
        load(3);
        store(DynamoLayoutMode.DUAL).close();
        assertThat(migrate("finalize", "--page-size", "100", "--ack-rollout", "--ack-write-quiescence")
                        .exitCode())
                .isZero();
        Cli.Run noAck = migrate("rollback", "--page-size", "100");
        assertThat(noAck.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(noAck.err()).contains("--ack-write-quiescence");

        Cli.Run rolledBack = migrate("rollback", "--page-size", "100", "--ack-write-quiescence", "--json");
        assertThat(rolledBack.exitCode()).as(rolledBack.toString()).isZero();
        assertThat(summary(rolledBack).get("outcome").asText()).isEqualTo("rolled-back");
        assertThat(summary(rolledBack).get("completion").isNull()).isTrue();
        assertThat(store(DynamoLayoutMode.DUAL).toString()).contains("authority=V1");
        Cli.Run notFinalized = migrate("declare-horizon", "--ack-stores-restarted");
        assertThat(notFinalized.exitCode()).as(notFinalized.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(notFinalized.err()).contains("not finalized");

        assertThat(migrate("finalize", "--page-size", "100", "--ack-rollout", "--ack-write-quiescence")
                        .exitCode())
                .isZero();
        assertThat(migrate("declare-horizon", "--ack-stores-restarted").exitCode())
                .isZero();
        Cli.Run refused = migrate("rollback", "--page-size", "100", "--ack-write-quiescence", "--json");
        assertThat(refused.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(summary(refused).get("outcome").asText()).isEqualTo("horizon-passed");
    }

    @Test
    void finalizeStoppedByMaxPages_exits7_andAPausedBackfillResumes() throws Exception {
        load(30);
        store(DynamoLayoutMode.DUAL).close();

        Cli.Run paused = migrate("backfill", "--page-size", "10", "--max-pages", "2", "--json");
        assertThat(paused.exitCode()).isZero();
        assertThat(summary(paused).get("outcome").asText()).isEqualTo("backfill-paused");
        assertThat(summary(paused).get("backfill").get("pages").asLong()).isEqualTo(2);
        Cli.Run incomplete = migrate(
                "finalize",
                "--page-size",
                "10",
                "--max-pages",
                "1",
                "--ack-rollout",
                "--ack-write-quiescence",
                "--json");
        assertThat(incomplete.exitCode()).as(incomplete.toString()).isEqualTo(DynamoMigrateCommand.BACKFILL_INCOMPLETE);
        assertThat(summary(incomplete).get("backfill").get("pages").asLong()).isEqualTo(3);
        Cli.Run done = migrate("finalize", "--page-size", "50", "--ack-rollout", "--ack-write-quiescence", "--json");
        assertThat(done.exitCode()).as(done.toString()).isZero();
        assertThat(summary(done).get("verification").get("legacyItems").asLong())
                .isEqualTo(120);
    }

    @Test
    void configurationFromTheEnvironment_asAKubernetesJobGivesIt() throws Exception {
        load(3);
        store(DynamoLayoutMode.DUAL).close();
        Map<String, String> env = new HashMap<>(Map.of(
                "LAKE_META_MIGRATE_PAGE_SIZE",
                "50",
                "LAKE_META_MIGRATE_ACK_ROLLOUT",
                "true",
                "LAKE_META_MIGRATE_ACK_WRITE_QUIESCENCE",
                "true"));

        Cli.Run run = inChildJvm(env, "dynamo-migrate", "finalize");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(summary(run).get("outcome").asText()).isEqualTo("finalized");
        assertThat(run.err()).doesNotContain("deprecated");
    }

    // The flag form of earlier releases, deprecated: one test for each of its actions.

    @Test
    void flagForm_actionFromTheEnvironment_LAKE_META_MIGRATE_FINALIZE_stillFinalizes_withAWarning() throws Exception {
        load(3);
        store(DynamoLayoutMode.DUAL).close();
        Map<String, String> env = new HashMap<>(Map.of(
                "LAKE_META_MIGRATE_PAGE_SIZE",
                "50",
                "LAKE_META_MIGRATE_FINALIZE",
                "true",
                "LAKE_META_MIGRATE_ACK_ROLLOUT",
                "true",
                "LAKE_META_MIGRATE_ACK_WRITE_QUIESCENCE",
                "true"));

        Cli.Run run = inChildJvm(env, "dynamo-migrate");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(summary(run).get("outcome").asText()).isEqualTo("finalized");
        assertDeprecationWarning(run, "LAKE_META_MIGRATE_FINALIZE=true", "finalize");
    }

    @Test
    void flagForm_noAction_backfills_withAWarning() throws Exception {
        load(3);
        store(DynamoLayoutMode.DUAL).close();

        Cli.Run run = migrateFlagForm("--page-size", "100", "--json");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(summary(run).get("action").asText()).isEqualTo("backfill");
        assertThat(summary(run).get("outcome").asText()).isEqualTo("backfill-done");
        assertDeprecationWarning(run, "dynamo-migrate without an action", "backfill");
    }

    @Test
    void flagForm_status_printsWhatStatusPrints_withAWarning() throws Exception {
        load(3);
        store(DynamoLayoutMode.DUAL).close();

        Cli.Run flags = migrateFlagForm("--status", "--json");
        Cli.Run action = migrate("status", "--json");

        assertThat(flags.exitCode()).as(flags.toString()).isZero();
        assertThat(flags.out()).isEqualTo(action.out());
        assertThat(summary(flags).get("action").asText()).isEqualTo("status");
        assertDeprecationWarning(flags, "--status", "status");
        assertThat(action.err()).isEmpty();
    }

    @Test
    void flagForm_finalize_finalizes_andItsErrorsKeepTheirExitCodes() throws Exception {
        load(3);
        store(DynamoLayoutMode.DUAL).close();
        Cli.Run noAck = migrateFlagForm("--page-size", "100", "--finalize", "--ack-rollout");
        assertThat(noAck.exitCode()).as(noAck.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(noAck.err()).contains("--ack-write-quiescence").contains("nothing was done");

        Cli.Run run = migrateFlagForm(
                "--page-size", "100", "--finalize", "--ack-rollout", "--ack-write-quiescence", "--json");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(summary(run).get("action").asText()).isEqualTo("finalize");
        assertThat(summary(run).get("outcome").asText()).isEqualTo("finalized");
        assertDeprecationWarning(run, "--finalize", "finalize");
    }

    @Test
    void flagForm_rollback_rollsBack_withAWarning() throws Exception {
        load(3);
        store(DynamoLayoutMode.DUAL).close();
        assertThat(migrate("finalize", "--page-size", "100", "--ack-rollout", "--ack-write-quiescence")
                        .exitCode())
                .isZero();

        Cli.Run run = migrateFlagForm("--page-size", "100", "--rollback", "--ack-write-quiescence", "--json");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(summary(run).get("action").asText()).isEqualTo("rollback");
        assertThat(summary(run).get("outcome").asText()).isEqualTo("rolled-back");
        assertDeprecationWarning(run, "--rollback", "rollback");
    }

    @Test
    void flagForm_releaseBarrier_releasesIt_withAWarning() throws Exception {
        load(3);
        store(DynamoLayoutMode.DUAL).close();
        admin.putItem(r -> r.tableName(table)
                .item(Map.of(
                        "pk",
                        AttributeValue.fromS("#migration"),
                        "sk",
                        AttributeValue.fromS("#barrier"),
                        "holder",
                        AttributeValue.fromS("finalizer-that-stopped"),
                        "installed_at",
                        AttributeValue.fromS("2026-01-01T00:00:00Z"))));

        Cli.Run run = migrateFlagForm("--release-barrier", "--json");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(summary(run).get("action").asText()).isEqualTo("release-barrier");
        assertThat(summary(run).get("outcome").asText()).isEqualTo("barrier-released");
        assertDeprecationWarning(run, "--release-barrier", "release-barrier");
        assertThat(migrateFlagForm("--release-barrier", "--json").out())
                .isEqualTo(migrate("release-barrier", "--json").out());
    }

    @Test
    void flagForm_declareRollbackHorizon_declaresIt_withAWarning() throws Exception {
        load(3);
        store(DynamoLayoutMode.DUAL).close();
        assertThat(migrate("finalize", "--page-size", "100", "--ack-rollout", "--ack-write-quiescence")
                        .exitCode())
                .isZero();
        Cli.Run noAck = migrateFlagForm("--declare-rollback-horizon");
        assertThat(noAck.exitCode()).as(noAck.toString()).isEqualTo(ExitCodes.USAGE);

        Cli.Run run = migrateFlagForm("--declare-rollback-horizon", "--ack-stores-restarted", "--json");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(summary(run).get("action").asText()).isEqualTo("declare-rollback-horizon");
        assertThat(summary(run).get("completion").get("rollbackHorizonPassed").asBoolean())
                .isTrue();
        assertDeprecationWarning(run, "--declare-rollback-horizon", "declare-horizon");
        assertThat(migrate("declare-horizon", "--ack-stores-restarted", "--json")
                        .out())
                .isEqualTo(run.out());
    }

    /** Runs {@code lake-meta ARGS} in a child JVM with the tables, endpoint and JSON output set in its environment, plus {@code env}. */
    private Cli.Run inChildJvm(Map<String, String> env, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                LakeMetaCommand.class.getName()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command);
        Map<String, String> environment = builder.environment();
        environment.keySet().removeIf(name -> name.startsWith("AWS_") || name.startsWith("LAKE_META_"));
        environment.put("LAKE_META_MIGRATE_LEGACY_TABLE", legacy);
        environment.put("LAKE_META_MIGRATE_TABLE", table);
        environment.put("LAKE_META_MIGRATE_ENDPOINT", server.endpoint().toString());
        environment.put("LAKE_META_MIGRATE_JSON", "true");
        environment.put("AWS_REGION", "us-east-1");
        environment.put("AWS_ACCESS_KEY_ID", ACCESS_KEY);
        environment.put("AWS_SECRET_ACCESS_KEY", SECRET_KEY);
        environment.putAll(env);
        Process process = builder.start();
        process.getOutputStream().close();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        Cli.Run run = new Cli.Run(process.exitValue(), out, err);
        runs.add(run);
        return run;
    }
}
