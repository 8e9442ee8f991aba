package io.lake.meta.bench;

import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.WriteResult;
import io.lake.meta.rocks.Durability;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jmh.annotations.AuxCounters;
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
 * Sixteen threads read one key and compare-and-set it from what they read, the way a counter or a
 * lease record is contended. At most one of the writers that read the same value can win, and each
 * win needs its own durable write, so successes are bounded by one per sync: the report compares
 * them with raw 1-thread synced puts and gives conflicts per success.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class HotKeyBenchmark {

    @Param({"SYNCED_WAL"})
    public Durability durability;

    private static final MetaKey HOT = MetaKey.of("hot/counter");

    private OpenedStore opened;
    private MetaStore store;
    private final AtomicInteger threadIds = new AtomicInteger();

    @Setup(Level.Trial)
    public void open() {
        opened = OpenedStore.open(Backend.LAKE_META, durability);
        store = ((LakeMetaRocksStore) opened.store()).metaStore();
        store.create(HOT, BenchValue.seeded(-1).meta());
    }

    @TearDown(Level.Trial)
    public void close() {
        opened.close();
    }

    /** What one thread's attempts came to; OPERATIONS: JMH reports each counter per second, as the primary score. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Outcomes {
        public long successes;
        public long conflicts;
        private long seed;

        @Setup(Level.Trial)
        public void setUp(HotKeyBenchmark bench) {
            seed = (long) bench.threadIds.getAndIncrement() << 40; // values never repeat, so no ABA
        }

        @Setup(Level.Iteration)
        public void reset() {
            successes = 0;
            conflicts = 0;
        }
    }

    @Benchmark
    @Threads(16)
    public WriteResult readThenCas(Outcomes outcomes) {
        MetaValue current = store.get(HOT).orElseThrow();
        WriteResult result =
                store.update(HOT, current, BenchValue.seeded(outcomes.seed++).meta());
        if (result.isApplied()) {
            outcomes.successes++;
        } else {
            outcomes.conflicts++;
        }
        return result;
    }
}
