package io.lake.meta.reliability.linearizability;

import static org.assertj.core.api.Assertions.assertThat;

import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
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
 * the in-memory model, RocksDB, and DynamoDB through the in-process server under every fault plan
 * of {@link DynamoFaults}, each checked for linearizability with unknown outcomes counted as
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
        runHistories("histories-model", Runs.size("histories", 20, 6_000), i -> new Target(InMemoryMetaStore.create(), true, null, null));
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
                MetaStore store = DynamoStores.newStore(client, "hist-" + plan.name().toLowerCase(), i % 3 == 0 ? 1 : 4);
                String table = DynamoStores.tableOf(store);
                return new Target(store, false, new FaultArming(server, table, plan), null);
            });
        } finally {
            server.faults().clear();
        }
    }

    /** The store of one history, whether its first pages are one snapshot, the faults armed on it, its directory. */
    private record Target(MetaStore store, boolean snapshotPages, FaultArming faults, Path dir) {
    }

    /** Arms faults of one plan on one table, for whichever client sends the next matching request. */
    private static final class FaultArming {
        final DynamoDbTestServer server;
        final String table;
        final DynamoFaults plan;
        final List<ArmedFault> armed = new CopyOnWriteArrayList<>();

        FaultArming(DynamoDbTestServer server, String table, DynamoFaults plan) {
            this.server = server;
            this.table = table;
            this.plan = plan;
        }

        void armOne(Random r) {
            armed.addAll(plan.armOne(server.faults(), table, r));
        }

        int fired() {
            return armed.stream().mapToInt(ArmedFault::fired).sum();
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
                    MetaStore recorded = target.snapshotPages() ? recorder.recordingWithPages(store) : recorder.recording(store);
                    runClients(pool, recorded, historySeed, target.faults(), errors);
                    history = recorder.history();
                } finally {
                    if (target.dir() != null) {
                        deleteTree(target.dir());
                    }
                    if (target.faults() != null) {
                        target.faults().server.faults().clear();
                        faultsFired += target.faults().fired();
                    }
                }
                CheckResult result = new LinearizabilityChecker().check(history, Map.<MetaKey, MetaValue>of());
                operations += history.size();
                unknown += history.unknownOutcomes();
                largest = Math.max(largest, history.size());
                if (!result.isLinearizable()) {
                    violations.add("history " + h + (target.faults() != null ? " (" + target.faults().plan + ")" : "")
                            + ": " + result);
                }
            }
        } finally {
            pool.shutdownNow();
        }
        Runs.figures(area, "histories=" + histories + ", operations=" + operations + " (" + (operations / Math.max(1, histories))
                + " per history, largest " + largest + "), unknown outcomes=" + unknown + ", faults fired=" + faultsFired
                + ", typed errors=" + errors + ", violations=" + violations.size());
        assertThat(violations).as("histories that are not linearizable (seed above)").isEmpty();
    }

    private static void runClients(ExecutorService pool, MetaStore recorded, long seed, FaultArming faults,
            Map<String, LongAdder> errors) throws Exception {
        CountDownLatch start = new CountDownLatch(1);
        List<Future<?>> clients = new ArrayList<>();
        for (int c = 0; c < CLIENTS; c++) {
            Random r = new Random(seed + c);
            MixedWorkload workload = new MixedWorkload(c, "h", r, recorded, errors);
            Consumer<Random> arm = faults == null ? x -> { } : faults::armOne;
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
                files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }
}
