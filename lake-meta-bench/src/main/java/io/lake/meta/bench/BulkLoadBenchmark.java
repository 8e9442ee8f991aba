package io.lake.meta.bench;

import io.lake.meta.rocks.Durability;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
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

/**
 * Loads {@code loadedKeys} fresh keys into an empty store, {@code batchKeys} per call: lake-meta
 * through {@code transact} (one transaction of creates per batch, the documented bulk path), raw
 * RocksDB through one {@code WriteBatch} per batch of the same size and durability. One shot per
 * iteration, each on a new store.
 *
 * <p>The keys are {@code bulk/table-<n>} for n counting up ({@link KeyOrder#IN_ORDER}, what the
 * bench runs), or the same keys in a seeded random order ({@link KeyOrder#SHUFFLED}, run by hand
 * with {@code -p keyOrder=SHUFFLED}), where no batch's keys lie together.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class BulkLoadBenchmark {

    @Param({"LAKE_META", "RAW_ROCKSDB"})
    public Backend backend;

    @Param({"SYNCED_WAL", "UNSYNCED_WAL"})
    public Durability durability;

    @Param({"1000000"})
    public int loadedKeys;

    @Param({"100"})
    public int batchKeys;

    /** The order the keys are loaded in. */
    public enum KeyOrder {
        IN_ORDER,
        SHUFFLED
    }

    @Param({"IN_ORDER"})
    public KeyOrder keyOrder;

    private int[] numbers;

    private OpenedStore opened;
    private final BenchValue value = BenchValue.seeded(42);

    @Setup(Level.Trial)
    public void numberTheKeys() {
        List<Integer> order = IntStream.range(0, loadedKeys).boxed().collect(Collectors.toList());
        if (keyOrder == KeyOrder.SHUFFLED) {
            Collections.shuffle(order, new Random(42));
        }
        numbers = order.stream().mapToInt(Integer::intValue).toArray();
    }

    @Setup(Level.Iteration)
    public void open() {
        opened = OpenedStore.open(backend, durability);
    }

    @TearDown(Level.Iteration)
    public void close() {
        opened.close();
    }

    @Benchmark
    public int load() {
        BenchStore store = opened.store();
        List<BenchKey> batch = new ArrayList<>(batchKeys);
        for (int i = 0; i < loadedKeys; i++) {
            batch.add(BenchKey.of("bulk/table-" + numbers[i]));
            if (batch.size() == batchKeys || i == loadedKeys - 1) {
                store.createAll(batch, value);
                batch.clear();
            }
        }
        return loadedKeys;
    }
}
