package io.lake.meta.cli.dynamo;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.json.JsonMapper;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.WriteBarrierException;
import io.lake.meta.WriteResult;
import io.lake.meta.cli.Cli;
import io.lake.meta.cli.LakeMetaCommand;
import io.lake.meta.cli.TestDynamo;
import io.lake.meta.dynamo.DynamoLayoutMode;
import io.lake.meta.dynamo.DynamoMetaStore;
import io.lake.meta.dynamo.DynamoMigration;
import io.lake.meta.dynamo.ParityReport;
import io.lake.meta.testserver.dynamodb.DynamoDbTestServer;
import io.lake.meta.testserver.dynamodb.ServerHooks;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

/**
 * The whole migration as an operator runs it with {@code lake-meta dynamo-migrate}, while writers
 * in mode DUAL keep writing (issue 22, "Done when"): a legacy table of thousands of keys in
 * several families; a first backfill run paused by {@code --max-pages}; a second one in a child
 * JVM killed ({@code kill -9}) while the server holds one of its page's copy transactions; the
 * backfill resumed to the end; a finalize; a rollback; writes in mode V1; the rollout to DUAL again,
 * a second backfill and finalize; every store restarted; the horizon. It ends with every
 * acknowledged write present in both tables and both tables equal.
 *
 * <p>The kill is placed by the in-process server's {@link ServerHooks#WRITE_CHECKED} hook (the
 * writers are paused for that moment, so the held transaction is the child's), never by timing.
 */
class DynamoMigrateLifecycleEndToEndTest {

    private static final List<String> FAMILIES = List.of("tbl", "lease", "ops", "reg");
    private static final int PER_FAMILY = 750;
    private static final int WRITERS = 3;
    private static final int KEYS_PER_WRITER = 20;
    private static final int V1_KEYS = 40;
    private static final JsonMapper JSON = new JsonMapper();

    private DynamoDbTestServer server;
    private DynamoDbClient admin;
    private final String legacy = "e2e-v1";
    private final String table = "e2e-v2";
    private final List<MetaStore> opened = new ArrayList<>();
    private final Map<String, Optional<String>> savedProperties = new HashMap<>();

    @BeforeEach
    void start() {
        server = DynamoDbTestServer.create().start();
        admin = TestDynamo.client(server, "admin");
        for (String[] p : new String[][] {{"aws.accessKeyId", "e2e"}, {"aws.secretAccessKey", "e2e"}}) {
            savedProperties.putIfAbsent(p[0], Optional.ofNullable(System.getProperty(p[0])));
            System.setProperty(p[0], p[1]);
        }
    }

    @AfterEach
    void stop() {
        server.hooks(ServerHooks.NONE);
        opened.forEach(MetaStore::close);
        admin.close();
        server.close();
        savedProperties.forEach((name, value) -> {
            if (value.isPresent()) {
                System.setProperty(name, value.get());
            } else {
                System.clearProperty(name);
            }
        });
    }

    private MetaStore open(DynamoLayoutMode mode) {
        MetaStore store = DynamoMetaStore.builder()
                .client(admin)
                .mode(mode)
                .legacyTableName(legacy)
                .tableName(table)
                .shardCount(4)
                .createTableIfMissing(true)
                .build();
        opened.add(store);
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
                "us-east-1",
                "--shards",
                "4",
                "--json"));
        all.addAll(List.of(args));
        Cli.Run run = Cli.run(all.toArray(String[]::new));
        String out = run.out().strip();
        int at = out.indexOf("\"outcome\":");
        System.out.println("[e2e] dynamo-migrate " + action + " " + String.join(" ", args) + " => exit "
                + run.exitCode() + ", " + (at < 0 ? out : out.substring(at, Math.min(out.length(), at + 40))));
        return run;
    }

    private static String outcome(Cli.Run run) throws Exception {
        String[] lines = run.out().strip().split("\\R");
        assertThat(lines).as("one JSON summary: %s", run).hasSize(1);
        return JSON.readTree(lines[0]).get("outcome").asText();
    }

    @Test
    void migrationDrivenByTheCli_withAKilledMigrator_aRollback_v1Writes_aSecondFinalize_andTheHorizon_losesNoWrite()
            throws Exception {
        long started = System.nanoTime();
        open(DynamoLayoutMode.V1).close();
        load();
        Map<MetaKey, Optional<MetaValue>> acknowledged = new ConcurrentHashMap<>();
        Writers writers = new Writers(acknowledged);
        for (int w = 0; w < WRITERS; w++) {
            writers.start(w, open(DynamoLayoutMode.DUAL));
        }

        // 1. a first backfill run, paused by --max-pages
        Cli.Run paused = migrate("backfill", "--page-size", "300", "--max-pages", "2");
        assertThat(paused.exitCode()).as(paused.toString()).isZero();
        assertThat(outcome(paused)).isEqualTo("backfill-paused");

        // 2. a second run in a child JVM, killed while the server holds the 3rd copy transaction of its page
        killedMidPage(writers);

        // 3. resumed to the end, then finalized, while the writers write
        Cli.Run resumed = migrate("backfill", "--page-size", "300");
        assertThat(resumed.exitCode()).as(resumed.toString()).isZero();
        assertThat(outcome(resumed)).isEqualTo("backfill-done");
        Cli.Run finalized = migrate("finalize", "--page-size", "500", "--ack-rollout", "--ack-write-quiescence");
        assertThat(finalized.exitCode()).as(finalized.toString()).isZero();
        assertThat(outcome(finalized)).isEqualTo("finalized");
        writers.restartAll(() -> open(DynamoLayoutMode.DUAL)); // now on the v2 authority
        writers.awaitRounds(2);

        // 4. a rollback; writes in V1 (the DUAL writers keep writing: their next write takes the legacy authority)
        Cli.Run rolledBack = migrate("rollback", "--page-size", "500", "--ack-write-quiescence");
        assertThat(rolledBack.exitCode()).as(rolledBack.toString()).isZero();
        assertThat(outcome(rolledBack)).isEqualTo("rolled-back");
        MetaStore v1 = open(DynamoLayoutMode.V1);
        int v1Writes = writeInV1(v1, acknowledged);
        v1.close();
        opened.remove(v1);
        writers.awaitRounds(2);

        // 5. the rollout to DUAL done again (no V1 store runs): backfill and finalize again
        Cli.Run again = migrate("backfill", "--page-size", "300");
        assertThat(again.exitCode()).as(again.toString()).isZero();
        assertThat(outcome(again)).isEqualTo("backfill-done");
        Cli.Run refinalized = migrate("finalize", "--page-size", "500", "--ack-rollout", "--ack-write-quiescence");
        assertThat(refinalized.exitCode()).as(refinalized.toString()).isZero();
        assertThat(outcome(refinalized)).isEqualTo("finalized");

        // 6. every store restarted on the v2 authority, then the horizon
        writers.restartAll(() -> open(DynamoLayoutMode.DUAL));
        writers.awaitRounds(2);
        long writes = writers.stop();
        Cli.Run horizon = migrate("declare-horizon", "--ack-stores-restarted");
        assertThat(horizon.exitCode()).as(horizon.toString()).isZero();

        DynamoMigration migration = DynamoMigration.builder()
                .client(admin)
                .legacyTableName(legacy)
                .tableName(table)
                .build();
        ParityReport parity = migration.verify(1000);
        MetaStore v2 = open(DynamoLayoutMode.V2);
        List<String> missing = new ArrayList<>();
        for (Map.Entry<MetaKey, Optional<MetaValue>> e : acknowledged.entrySet()) {
            Optional<MetaValue> held = v2.get(e.getKey());
            if (!held.equals(e.getValue())) {
                missing.add(e.getKey() + ": acknowledged "
                        + e.getValue().map(MetaValue::asUtf8).orElse("absent") + ", v2 holds "
                        + held.map(MetaValue::asUtf8).orElse("absent"));
            }
        }
        System.out.printf(
                "[e2e] %d legacy keys in %d families; %d DUAL writes and %d V1 writes acknowledged (%d barrier"
                        + " refusals retried); %d keys checked in both tables, %d missing; parity %s (%d items, %d differences);"
                        + " %.1f s%n",
                FAMILIES.size() * PER_FAMILY,
                FAMILIES.size(),
                writes,
                v1Writes,
                writers.barrierRefusals.get(),
                acknowledged.size(),
                missing.size(),
                parity.clean() ? "clean" : "NOT clean",
                parity.legacyItems(),
                parity.differenceCount(),
                (System.nanoTime() - started) / 1e9);
        assertThat(missing).as("acknowledged writes missing from the v2 table").isEmpty();
        assertThat(parity.clean()).as("both tables equal: %s", parity).isTrue();
        assertThat(parity.legacyItems()).isEqualTo(parity.v2Items());
    }

    /** Runs a backfill in a child JVM and kills it while the server holds one of its copy transactions. */
    private void killedMidPage(Writers writers) throws Exception {
        writers.pause();
        CountDownLatch held = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger copies = new AtomicInteger();
        server.hooks(new ServerHooks() {
            @Override
            public void reached(String point) {}

            @Override
            public void reached(String point, String operation, Set<String> tables) {
                if (WRITE_CHECKED.equals(point)
                        && "TransactWriteItems".equals(operation)
                        && tables.contains(legacy)
                        && tables.contains(table)
                        && copies.incrementAndGet() == 3) {
                    held.countDown();
                    try {
                        release.await(60, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            }
        });
        ProcessBuilder builder = new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                LakeMetaCommand.class.getName(),
                "dynamo-migrate",
                "backfill",
                "--legacy-table",
                legacy,
                "--table",
                table,
                "--endpoint",
                server.endpoint().toString(),
                "--region",
                "us-east-1",
                "--page-size",
                "300");
        builder.environment().keySet().removeIf(name -> name.startsWith("AWS_") || name.startsWith("LAKE_META_"));
        builder.environment().put("AWS_ACCESS_KEY_ID", "e2e");
        builder.environment().put("AWS_SECRET_ACCESS_KEY", "e2e");
        builder.redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD);
        Process child = builder.start();
        try {
            assertThat(held.await(120, TimeUnit.SECONDS))
                    .as("the child's third copy transaction reached the server")
                    .isTrue();
            child.destroyForcibly();
            assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
        } finally {
            release.countDown(); // the held transaction commits; its answer goes to a dead process; the cursor never
            // moved
            server.hooks(ServerHooks.NONE);
            writers.resume();
        }
        System.out.println("[e2e] the backfill in a child JVM was killed (exit " + child.exitValue()
                + ") while the server held its page's third copy transaction");
    }

    /** Writes in mode V1 after the rollback: updates and deletes of legacy keys no writer owns, and creations. */
    private static int writeInV1(MetaStore v1, Map<MetaKey, Optional<MetaValue>> acknowledged) {
        int writes = 0;
        for (int i = 0; i < V1_KEYS; i++) {
            MetaKey key = MetaKey.of("reg/k" + (PER_FAMILY - 1 - i));
            MetaValue was = MetaValue.utf8("legacy " + (PER_FAMILY - 1 - i));
            if (i % 4 == 0) {
                assertThat(v1.delete(key, was)).isEqualTo(WriteResult.applied());
                acknowledged.put(key, Optional.empty());
            } else {
                MetaValue now = MetaValue.utf8("v1 after rollback " + i);
                assertThat(v1.update(key, was, now)).isEqualTo(WriteResult.applied());
                acknowledged.put(key, Optional.of(now));
            }
            MetaKey created = MetaKey.of("reg/v1-new-" + i);
            MetaValue value = MetaValue.utf8("created in V1 " + i);
            assertThat(v1.create(created, value)).isEqualTo(WriteResult.applied());
            acknowledged.put(created, Optional.of(value));
            writes += 2;
        }
        return writes;
    }

    private void load() {
        List<WriteRequest> all = new ArrayList<>();
        for (String family : FAMILIES) {
            for (int i = 0; i < PER_FAMILY; i++) {
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

    /**
     * The DUAL writers: each updates its own legacy keys and creates and deletes keys of its own, a
     * write refused by the barrier retried; what each key held after its last acknowledged write is
     * recorded. A store can be swapped (a restart) between two writes, and all can be paused.
     */
    private static final class Writers {
        final Map<MetaKey, Optional<MetaValue>> acknowledged;
        final List<AtomicReference<MetaStore>> stores = new ArrayList<>();
        final List<CompletableFuture<Long>> running = new ArrayList<>();
        final AtomicBoolean stop = new AtomicBoolean();
        final AtomicLong barrierRefusals = new AtomicLong();
        private long rounds;
        private final Object progress = new Object();
        final ReentrantReadWriteLock gate = new ReentrantReadWriteLock();

        Writers(Map<MetaKey, Optional<MetaValue>> acknowledged) {
            this.acknowledged = acknowledged;
        }

        void start(int writer, MetaStore store) {
            AtomicReference<MetaStore> ref = new AtomicReference<>(store);
            stores.add(ref);
            running.add(CompletableFuture.supplyAsync(() -> write(writer, ref)));
        }

        void pause() {
            gate.writeLock().lock();
        }

        void resume() {
            gate.writeLock().unlock();
        }

        void restartAll(java.util.function.Supplier<MetaStore> open) {
            pause();
            try {
                for (AtomicReference<MetaStore> ref : stores) {
                    ref.getAndSet(open.get()).close();
                }
            } finally {
                resume();
            }
        }

        /** Waits until every writer finished {@code n} more rounds over its keys (each write acknowledged). */
        void awaitRounds(int n) throws Exception {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            synchronized (progress) {
                long target = rounds + (long) n * WRITERS;
                while (rounds < target) {
                    for (CompletableFuture<Long> f : running) {
                        if (f.isDone()) {
                            f.get(); // a writer failed: its exception fails the test
                        }
                    }
                    assertThat(System.nanoTime() - deadline)
                            .as("writers made progress")
                            .isNegative();
                    progress.wait(
                            1000); // woken by every finished round; the timeout only re-checks for a failed writer
                }
            }
        }

        long stop() throws Exception {
            stop.set(true);
            long writes = 0;
            for (CompletableFuture<Long> f : running) {
                writes += f.get(120, TimeUnit.SECONDS);
            }
            return writes;
        }

        private long write(int writer, AtomicReference<MetaStore> store) {
            Map<MetaKey, Optional<MetaValue>> mine = new HashMap<>();
            List<MetaKey> keys = new ArrayList<>();
            for (int i = 0; i < KEYS_PER_WRITER; i++) {
                int n = writer * KEYS_PER_WRITER + i;
                MetaKey legacyKey = MetaKey.of(FAMILIES.get(i % 3) + "/k" + n);
                MetaKey own = MetaKey.of("ops/new/w" + writer + "-" + i);
                mine.put(legacyKey, Optional.of(MetaValue.utf8("legacy " + n)));
                mine.put(own, Optional.empty());
                keys.add(legacyKey);
                keys.add(own);
            }
            long acks = 0;
            for (int round = 0; !stop.get(); round++) {
                for (MetaKey key : keys) {
                    Optional<MetaValue> current = mine.get(key);
                    Optional<MetaValue> next =
                            key.toString().startsWith("ops/new/") && current.isPresent() && round % 3 == 2
                                    ? Optional.empty()
                                    : Optional.of(MetaValue.utf8("w" + writer + " round " + round));
                    while (true) {
                        gate.readLock().lock();
                        try {
                            MetaStore s = store.get();
                            WriteResult result = next.isEmpty()
                                    ? s.delete(key, current.get())
                                    : current.isEmpty()
                                            ? s.create(key, next.get())
                                            : s.update(key, current.get(), next.get());
                            assertThat(result)
                                    .as("%s through %s: the only writer of its keys", key, s)
                                    .isEqualTo(WriteResult.applied());
                            break;
                        } catch (WriteBarrierException e) {
                            barrierRefusals.incrementAndGet();
                        } finally {
                            gate.readLock().unlock();
                        }
                        Thread.onSpinWait();
                    }
                    mine.put(key, next);
                    acknowledged.put(key, next);
                    acks++;
                }
                synchronized (progress) {
                    rounds++;
                    progress.notifyAll();
                }
            }
            return acks;
        }
    }
}
