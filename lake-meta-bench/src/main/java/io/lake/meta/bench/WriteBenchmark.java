package io.lake.meta.bench;

import io.lake.meta.rocks.Durability;
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
 * Writers on keys of their own: compare-and-set (raw: put) with 1 and 16 threads, and creates of
 * fresh keys with 16 threads, at both durabilities. Every call is one acknowledged write.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class WriteBenchmark {

    @Param({"LAKE_META", "RAW_ROCKSDB"})
    public Backend backend;

    @Param({"SYNCED_WAL", "UNSYNCED_WAL"})
    public Durability durability;

    private OpenedStore opened;
    private BenchStore store;
    private final AtomicInteger writerIds = new AtomicInteger();

    @Setup(Level.Trial)
    public void open() {
        opened = OpenedStore.open(backend, durability);
        store = opened.store();
    }

    @TearDown(Level.Trial)
    public void close() {
        opened.close();
    }

    /** One writer thread's key, the two values it alternates between, and its next fresh key. */
    @State(Scope.Thread)
    public static class Writer {
        private BenchKey key;
        private BenchValue[] values;
        private int current;
        private String freshPrefix;
        private long fresh;

        @Setup(Level.Trial)
        public void setUp(WriteBenchmark bench) {
            int id = bench.writerIds.getAndIncrement();
            key = BenchKey.of("cas/writer-" + id);
            values = new BenchValue[] {BenchValue.seeded(2L * id), BenchValue.seeded(2L * id + 1)};
            freshPrefix = "new/writer-" + id + "/";
            if (!bench.store.create(key, values[0])) {
                throw new IllegalStateException("the writer's key already existed: " + key.meta());
            }
        }

        boolean swap(BenchStore store) {
            if (!store.compareAndSet(key, values[current], values[1 - current])) {
                throw new IllegalStateException("a compare-and-set on a key no one else writes conflicted");
            }
            current = 1 - current;
            return true;
        }

        boolean createNext(BenchStore store) {
            return store.create(BenchKey.of(freshPrefix + fresh++), values[0]);
        }
    }

    @Benchmark
    @Threads(1)
    public boolean cas1(Writer writer) {
        return writer.swap(store);
    }

    @Benchmark
    @Threads(16)
    public boolean cas16(Writer writer) {
        return writer.swap(store);
    }

    @Benchmark
    @Threads(16)
    public boolean create16(Writer writer) {
        return writer.createNext(store);
    }
}
