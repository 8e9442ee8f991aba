package io.lake.meta.bench;

import io.lake.meta.rocks.Durability;
import java.util.ArrayList;
import java.util.List;
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

/**
 * A full listing of one family of {@code listedKeys} keys, between two neighbouring families:
 * lake-meta follows page tokens in pages of {@code pageSize}; raw RocksDB walks one bounded
 * iterator over the same keys, copying each key and value out as lake-meta does.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class ListingBenchmark {

    @Param({"LAKE_META", "RAW_ROCKSDB"})
    public Backend backend;

    @Param({"100000"})
    public int listedKeys;

    @Param({"1000"})
    public int pageSize;

    private OpenedStore opened;
    private BenchStore store;

    @Setup(Level.Trial)
    public void open() {
        opened = OpenedStore.open(backend, Durability.UNSYNCED_WAL); // listing does not depend on it
        store = opened.store();
        load("list", listedKeys);
        load("lisa", 1000);
        load("lisu", 1000);
    }

    private void load(String family, int count) {
        List<BenchKey> batch = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            batch.add(BenchKey.of(family + "/table-" + i));
            if (batch.size() == 100 || i == count - 1) {
                store.createAll(batch, BenchValue.seeded(i));
                batch.clear();
            }
        }
    }

    @TearDown(Level.Trial)
    public void close() {
        opened.close();
    }

    @Benchmark
    public long listFamily() {
        long listed = store.listAll("list/", pageSize);
        if (listed != listedKeys) {
            throw new IllegalStateException("listed " + listed + " of " + listedKeys + " keys");
        }
        return listed;
    }
}
