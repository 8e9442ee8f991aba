package io.lake.meta.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;

/**
 * lake-meta's PostgreSQL store against plain JDBC statements doing the same work, on the same
 * server through pools of the same size: compare-and-set on each writer's own key with 1 and 16
 * threads, the first page of {@code pageSize} of a family of {@code familyKeys} keys (between two
 * neighbouring families), and {@code getAll} of {@code batchKeys} existing keys. Each trial works
 * on fresh tables, dropped at its end.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class PostgresBenchmark {

    /** The pool: one connection per writer thread of the widest benchmark. */
    static final int POOL_SIZE = 16;

    @Param({"LAKE_META", "RAW_JDBC"})
    public PgBackend backend;

    /** The server; the suite passes it (a bench run starts one or takes {@code --postgres}). */
    @Param({""})
    public String jdbcUrl;

    /** The user when the suite started the server; empty: {@code PGUSER}. */
    @Param({""})
    public String jdbcUser;

    @Param({"1000"})
    public int familyKeys;

    @Param({"100"})
    public int pageSize;

    @Param({"16"})
    public int batchKeys;

    private PgBenchStore store;
    private final List<BenchKey> family = new ArrayList<>();
    private final AtomicInteger writerIds = new AtomicInteger();

    @Setup(Level.Trial)
    public void open() {
        if (jdbcUrl.isEmpty()) {
            throw new IllegalStateException("no PostgreSQL server: run through BenchSuite, which passes jdbcUrl");
        }
        store = backend.open(new PgServer(jdbcUrl, jdbcUser), POOL_SIZE);
        for (int i = 0; i < familyKeys; i++) {
            BenchKey key = BenchKey.of(String.format("page/table-%06d", i));
            store.create(key, BenchValue.seeded(i));
            family.add(key);
        }
        for (int i = 0; i < familyKeys / 10; i++) { // neighbours on both sides, which the reads must not touch
            store.create(BenchKey.of("pagd/table-" + i), BenchValue.seeded(i));
            store.create(BenchKey.of("pagf/table-" + i), BenchValue.seeded(i));
        }
    }

    @TearDown(Level.Trial)
    public void close() {
        store.close();
    }

    /** One writer thread's key and the two values it alternates between; and where its batches start. */
    @State(Scope.Thread)
    public static class Worker {
        private BenchKey key;
        private BenchValue[] values;
        private int current;
        private int nextBatch;

        @Setup(Level.Trial)
        public void setUp(PostgresBenchmark bench) {
            int id = bench.writerIds.getAndIncrement();
            key = BenchKey.of("cas/writer-" + id);
            values = new BenchValue[] {BenchValue.seeded(2L * id), BenchValue.seeded(2L * id + 1)};
            nextBatch = id * 37;
            bench.store.create(key, values[0]);
        }

        boolean swap(PgBenchStore store) {
            if (!store.compareAndSet(key, values[current], values[1 - current])) {
                throw new IllegalStateException("a compare-and-set on a key no one else writes conflicted");
            }
            current = 1 - current;
            return true;
        }

        List<BenchKey> nextBatch(List<BenchKey> family, int size) {
            int from = nextBatch % (family.size() - size + 1);
            nextBatch += size;
            return family.subList(from, from + size);
        }
    }

    @Benchmark
    @Threads(1)
    public boolean cas1(Worker worker) {
        return worker.swap(store);
    }

    @Benchmark
    @Threads(16)
    public boolean cas16(Worker worker) {
        return worker.swap(store);
    }

    @Benchmark
    @Threads(1)
    public int page1() {
        int entries = store.firstPage("page/", pageSize);
        if (entries != Math.min(pageSize, familyKeys)) {
            throw new IllegalStateException("a page held " + entries + " entries, not " + pageSize);
        }
        return entries;
    }

    @Benchmark
    @Threads(1)
    public int getAll1(Worker worker) {
        int found = store.getAll(worker.nextBatch(family, batchKeys));
        if (found != batchKeys) {
            throw new IllegalStateException("getAll found " + found + " of " + batchKeys + " keys");
        }
        return found;
    }
}
