package io.lake.meta.reliability.linearizability;

import static org.assertj.core.api.Assertions.assertThat;

import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.postgres.PostgresMetaStore;
import io.lake.meta.reliability.DynamoFaults;
import io.lake.meta.reliability.DynamoStores;
import io.lake.meta.reliability.MixedWorkload;
import io.lake.meta.reliability.Runs;
import io.lake.meta.rocks.RocksDbMetaStore;
import io.lake.meta.testkit.InMemoryMetaStore;
import io.lake.meta.testkit.history.CheckResult;
import io.lake.meta.testkit.history.History;
import io.lake.meta.testkit.history.HistoryRecorder;
import io.lake.meta.testkit.history.LinearizabilityChecker;
import io.lake.meta.testkit.postgres.CuttingProxy;
import io.lake.meta.testkit.postgres.PostgresTestTarget;
import io.lake.meta.testserver.dynamodb.DynamoDbTestServer;
import io.lake.meta.testserver.dynamodb.fault.ArmedFault;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * Concurrent histories of {@link MixedWorkload} clients — gets, batch reads, first pages, creates,
 * CAS updates, deletes, guarded writes (current and stale guards) and transactions — recorded on
 * the in-memory model, RocksDB, DynamoDB through the in-process server under every fault plan
 * of {@link DynamoFaults}, and PostgreSQL through a proxy that cuts connections before a write,
 * before {@code COMMIT} and after {@code COMMIT}'s answer, each checked for linearizability with unknown outcomes counted as
 * may-or-may-not-have-applied. First pages are held to the model as one snapshot on the model and
 * RocksDB; on DynamoDB a page spans shards and is not one snapshot, so pages run there but are
 * not recorded.
 *
 * <p>The seed fixes each client's operations and the faults it arms; the interleaving is the
 * scheduler's, and every interleaving must pass. Sizes: {@code -Dlake.meta.reliability.histories=N}
 * per target (DynamoDB: per plan).
 */
class StoreHistoriesTest {

    private static final int CLIENTS = 4;
    private static final int STEPS = 30;

    @TempDir
    Path work;

    @Test
    void model_historiesAreLinearizable() throws Exception {
        runHistories(
                "histories-model",
                Runs.size("histories", 20, 6_000),
                i -> new Target(InMemoryMetaStore.create(), true, null, null));
    }

    @Test
    void rocksDb_historiesAreLinearizable() throws Exception {
        runHistories("histories-rocksdb", Runs.size("histories", 10, 2_500), i -> {
            Path dir = work.resolve("rocks-" + i);
            return new Target(RocksDbMetaStore.builder().directory(dir).build(), true, null, dir);
        });
    }

    @Test
    void dynamoDb_underEveryFaultPlan_historiesAreLinearizable() throws Exception {
        DynamoDbTestServer server = DynamoStores.target().requireInProcessServer();
        int perPlan = Runs.size("dynamoHistoriesPerPlan", 2, 200);
        try (DynamoDbClient client = DynamoStores.quickRetryingClient()) {
            DynamoFaults[] plans = DynamoFaults.values();
            runHistories("histories-dynamodb", perPlan * plans.length, i -> {
                DynamoFaults plan = plans[i % plans.length];
                MetaStore store =
                        DynamoStores.newStore(client, "hist-" + plan.name().toLowerCase(), i % 3 == 0 ? 1 : 4);
                String table = DynamoStores.tableOf(store);
                return new Target(store, false, new FaultArming(server, table, plan), null);
            });
        } finally {
            server.faults().clear();
        }
    }

    /** The store of one history, whether its first pages are one snapshot, the faults armed on it, its directory. */
    private record Target(MetaStore store, boolean snapshotPages, Faults faults, Path dir) {}

    /** Faults a history's clients arm as they go. */
    private interface Faults {
        void armOne(Random r);

        /** How many of the armed faults fired. */
        int fired();

        /** Disarms whatever is left, once the history ended. */
        void clear();

        /** The plan's name, for messages. */
        String plan();
    }

    /** Arms faults of one plan on one table, for whichever client sends the next matching request. */
    private static final class FaultArming implements Faults {
        final DynamoDbTestServer server;
        final String table;
        final DynamoFaults plan;
        final List<ArmedFault> armed = new CopyOnWriteArrayList<>();

        FaultArming(DynamoDbTestServer server, String table, DynamoFaults plan) {
            this.server = server;
            this.table = table;
            this.plan = plan;
        }

        @Override
        public void armOne(Random r) {
            armed.addAll(plan.armOne(server.faults(), table, r));
        }

        @Override
        public int fired() {
            return armed.stream().mapToInt(ArmedFault::fired).sum();
        }

        @Override
        public void clear() {
            server.faults().clear();
        }

        @Override
        public String plan() {
            return plan.toString();
        }
    }

    /**
     * Cuts on PostgreSQL: the next write's connection is cut by the {@link CuttingProxy} at one of
     * three points drawn by the client: before the server sees the write statement, before it sees
     * {@code COMMIT}, or after it answered {@code COMMIT} (the store must then resolve the outcome).
     */
    private static final class PostgresCuts implements Faults {
        private static final String[] MARKERS = {"INSERT INTO", "\0COMMIT\0", "\0COMMIT\0"};
        private static final CuttingProxy.Cut[] CUTS = {
            CuttingProxy.Cut.BEFORE_SERVER, CuttingProxy.Cut.BEFORE_SERVER, CuttingProxy.Cut.AFTER_SERVER_ANSWERED
        };
        final CuttingProxy proxy;

        PostgresCuts(CuttingProxy proxy) {
            this.proxy = proxy;
        }

        @Override
        public void armOne(Random r) {
            int point = r.nextInt(MARKERS.length);
            proxy.cutWhenClientSends(MARKERS[point], CUTS[point]);
        }

        @Override
        public int fired() {
            return proxy.cuts();
        }

        @Override
        public void clear() {
            try {
                proxy.close();
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }

        @Override
        public String plan() {
            return "cuts before the write, before COMMIT and after COMMIT's answer";
        }
    }

    @Test
    void postgres_underConnectionCuts_historiesAreLinearizable() throws Exception {
        try (PostgresTestTarget.TestDatabase database =
                PostgresTestTarget.shared().newDatabase("histories")) {
            runHistories("histories-postgres", Runs.size("histories", 10, 1_000), i -> {
                CuttingProxy proxy = new CuttingProxy(
                        database.target().host(), database.target().port());
                MetaStore store = PostgresMetaStore.builder()
                        .dataSource(database.target().direct(database.name(), "127.0.0.1", proxy.port()))
                        .table(database.newTableName())
                        .createTableIfMissing(true)
                        .build();
                return new Target(store, true, new PostgresCuts(proxy), null);
            });
        }
    }

    private interface TargetFactory {
        Target open(int index) throws Exception;
    }

    private void runHistories(String area, int histories, TargetFactory factory) throws Exception {
        long seed = Runs.seed(area);
        Random seeds = new Random(seed);
        List<String> violations = new ArrayList<>();
        long operations = 0;
        long unknown = 0;
        long faultsFired = 0;
        int largest = 0;
        Map<String, LongAdder> errors = MixedWorkload.errorCounts();
        ExecutorService pool = Executors.newFixedThreadPool(CLIENTS);
        try {
            for (int h = 0; h < histories && violations.size() < 3; h++) {
                long historySeed = seeds.nextLong();
                Target target = factory.open(h);
                History history;
                try (MetaStore store = target.store()) {
                    HistoryRecorder recorder = new HistoryRecorder();
                    MetaStore recorded =
                            target.snapshotPages() ? recorder.recordingWithPages(store) : recorder.recording(store);
                    runClients(pool, recorded, historySeed, target.faults(), errors);
                    history = recorder.history();
                } finally {
                    if (target.dir() != null) {
                        deleteTree(target.dir());
                    }
                    if (target.faults() != null) {
                        target.faults().clear();
                        faultsFired += target.faults().fired();
                    }
                }
                CheckResult result = new LinearizabilityChecker().check(history, Map.<MetaKey, MetaValue>of());
                operations += history.size();
                unknown += history.unknownOutcomes();
                largest = Math.max(largest, history.size());
                if (!result.isLinearizable()) {
                    violations.add("history " + h
                            + (target.faults() != null ? " (" + target.faults().plan() + ")" : "") + ": " + result);
                }
            }
        } finally {
            pool.shutdownNow();
        }
        Runs.figures(
                area,
                "histories=" + histories + ", operations=" + operations + " (" + (operations / Math.max(1, histories))
                        + " per history, largest " + largest + "), unknown outcomes=" + unknown + ", faults fired="
                        + faultsFired
                        + ", typed errors=" + errors + ", violations=" + violations.size());
        assertThat(violations)
                .as("histories that are not linearizable (seed above)")
                .isEmpty();
    }

    private static void runClients(
            ExecutorService pool, MetaStore recorded, long seed, Faults faults, Map<String, LongAdder> errors)
            throws Exception {
        CountDownLatch start = new CountDownLatch(1);
        List<Future<?>> clients = new ArrayList<>();
        for (int c = 0; c < CLIENTS; c++) {
            Random r = new Random(seed + c);
            MixedWorkload workload = new MixedWorkload(c, "h", r, recorded, errors);
            Consumer<Random> arm = faults == null ? x -> {} : faults::armOne;
            clients.add(pool.submit(() -> {
                start.await();
                for (int step = 0; step < STEPS; step++) {
                    if (r.nextInt(4) == 0) {
                        arm.accept(r);
                    }
                    workload.step();
                }
                return null;
            }));
        }
        start.countDown();
        for (Future<?> f : clients) {
            f.get(5, TimeUnit.MINUTES);
        }
    }

    static void deleteTree(Path dir) throws java.io.IOException {
        if (Files.exists(dir)) {
            try (var files = Files.walk(dir)) {
                files.sorted(java.util.Comparator.reverseOrder())
                        .forEach(p -> p.toFile().delete());
            }
        }
    }
}
