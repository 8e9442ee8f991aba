package io.lake.meta.bench.pulsar;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.apache.pulsar.metadata.api.GetResult;
import org.apache.pulsar.metadata.api.MetadataStore;
import org.apache.pulsar.metadata.api.MetadataStoreConfig;
import org.apache.pulsar.metadata.api.MetadataStoreException;
import org.apache.pulsar.metadata.api.MetadataStoreFactory;
import org.apache.pulsar.metadata.api.Stat;
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
 * The cases of lake-meta-bench's WriteBenchmark, HotKeyBenchmark and ReadBenchmark on Apache
 * Pulsar's RocksdbMetadataStore, used as a new user would: {@code MetadataStoreFactory.create} of
 * a {@code rocksdb:} URL with {@code fsyncEnable} for the synced rows, versioned {@code put} as the
 * compare-and-set, and calls waited for one by one. Values are 128 bytes, as in lake-meta-bench.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
public class PulsarPeerBenchmark {

    static final int VALUE_SIZE = 128;

    /** SYNCED_WAL: fsyncEnable(true); UNSYNCED_WAL: fsyncEnable(false). */
    @Param({"SYNCED_WAL", "UNSYNCED_WAL"})
    public String durability;

    @Param({"10000"})
    public int readKeys;

    private Path directory;
    private MetadataStore store;
    private final AtomicInteger threadIds = new AtomicInteger();
    private String[] readPaths;

    @Setup(Level.Trial)
    public void open() throws Exception {
        directory = Files.createTempDirectory("lake-meta-bench-pulsar-");
        store = MetadataStoreFactory.create("rocksdb:" + directory, MetadataStoreConfig.builder()
                .fsyncEnable(durability.equals("SYNCED_WAL"))
                .build());
        store.put("/hot/counter", value(-1), Optional.of(-1L)).get();
        readPaths = new String[readKeys];
        for (int i = 0; i < readKeys; i++) {
            readPaths[i] = "/read/key-" + i;
            store.put(readPaths[i], value(i), Optional.of(-1L)).get();
        }
    }

    @TearDown(Level.Trial)
    public void close() throws Exception {
        store.close();
        try (Stream<Path> files = Files.walk(directory)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(file);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static byte[] value(long seed) {
        byte[] bytes = new byte[VALUE_SIZE];
        Arrays.fill(bytes, (byte) 'x');
        for (int i = 0; i < Long.BYTES; i++) {
            bytes[i] = (byte) (seed >>> (8 * i));
        }
        return bytes;
    }

    /** One writer thread's path and the version it last wrote. */
    @State(Scope.Thread)
    public static class Writer {
        private String path;
        private long version;
        private long seed;
        private long fresh;
        private String freshPrefix;

        @Setup(Level.Trial)
        public void setUp(PulsarPeerBenchmark bench) throws Exception {
            int id = bench.threadIds.getAndIncrement();
            path = "/cas/writer-" + id;
            freshPrefix = "/new/writer-" + id + "/key-";
            seed = (long) id << 40;
            version = bench.store.put(path, value(seed++), Optional.of(-1L)).get().getVersion();
        }
    }

    @Benchmark
    @Threads(1)
    public Stat cas1(Writer writer) throws Exception {
        return swap(writer);
    }

    @Benchmark
    @Threads(16)
    public Stat cas16(Writer writer) throws Exception {
        return swap(writer);
    }

    @Benchmark
    @Threads(16)
    public Stat create16(Writer writer) throws Exception {
        return store.put(writer.freshPrefix + writer.fresh++, value(writer.seed++), Optional.of(-1L)).get();
    }

    private Stat swap(Writer writer) throws Exception {
        Stat stat = store.put(writer.path, value(writer.seed++), Optional.of(writer.version)).get();
        writer.version = stat.getVersion();
        return stat;
    }

    /** What one thread's attempts on the hot key came to; JMH reports each counter per second. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Outcomes {
        public long successes;
        public long conflicts;
        private long seed;

        @Setup(Level.Trial)
        public void setUp(PulsarPeerBenchmark bench) {
            seed = ((long) bench.threadIds.getAndIncrement() << 40) | (1L << 62);
        }

        @Setup(Level.Iteration)
        public void reset() {
            successes = 0;
            conflicts = 0;
        }
    }

    /** Read the hot key, then put it at the version read: the BadVersion failure is the conflict. */
    @Benchmark
    @Threads(16)
    public Object readThenCas(Outcomes outcomes) throws Exception {
        GetResult current = store.get("/hot/counter").get().orElseThrow();
        try {
            Stat stat = store.put("/hot/counter", value(outcomes.seed++), Optional.of(current.getStat().getVersion())).get();
            outcomes.successes++;
            return stat;
        } catch (java.util.concurrent.ExecutionException e) {
            if (e.getCause() instanceof MetadataStoreException.BadVersionException) {
                outcomes.conflicts++;
                return e;
            }
            throw e;
        }
    }

    /** Each thread's own random sequence of keys. */
    @State(Scope.Thread)
    public static class Reader {
        private final SplittableRandom random = new SplittableRandom();
    }

    @Benchmark
    @Threads(1)
    public Object get1(Reader reader) throws Exception {
        return store.get(readPaths[reader.random.nextInt(readPaths.length)]).get();
    }

    @Benchmark
    @Threads(4)
    public Object get4(Reader reader) throws Exception {
        return store.get(readPaths[reader.random.nextInt(readPaths.length)]).get();
    }
}
