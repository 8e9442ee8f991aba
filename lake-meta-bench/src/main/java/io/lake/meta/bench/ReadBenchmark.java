package io.lake.meta.bench;

import io.lake.meta.rocks.Durability;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
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

/** Point reads of random existing keys, 1 and 4 threads. */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class ReadBenchmark {

    @Param({"LAKE_META", "RAW_ROCKSDB"})
    public Backend backend;

    @Param({"10000"})
    public int readKeys;

    private OpenedStore opened;
    private BenchStore store;
    private BenchKey[] keys;

    @Setup(Level.Trial)
    public void open() {
        opened = OpenedStore.open(backend, Durability.UNSYNCED_WAL); // reads do not depend on it
        store = opened.store();
        keys = new BenchKey[readKeys];
        List<BenchKey> batch = new ArrayList<>();
        for (int i = 0; i < readKeys; i++) {
            keys[i] = BenchKey.of("read/key-" + i);
            batch.add(keys[i]);
            if (batch.size() == 100 || i == readKeys - 1) {
                store.createAll(batch, BenchValue.seeded(i));
                batch.clear();
            }
        }
    }

    @TearDown(Level.Trial)
    public void close() {
        opened.close();
    }

    /** Each thread's own random sequence of keys. */
    @State(Scope.Thread)
    public static class Reader {
        private final SplittableRandom random = new SplittableRandom();

        BenchKey next(BenchKey[] keys) {
            return keys[random.nextInt(keys.length)];
        }
    }

    @Benchmark
    @Threads(1)
    public Object get1(Reader reader) {
        return store.get(reader.next(keys));
    }

    @Benchmark
    @Threads(4)
    public Object get4(Reader reader) {
        return store.get(reader.next(keys));
    }
}
