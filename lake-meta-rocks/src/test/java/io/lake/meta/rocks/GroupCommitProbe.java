package io.lake.meta.rocks;

import com.sun.management.OperatingSystemMXBean;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaValue;
import io.lake.meta.spi.RaceHooks;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

/**
 * Not a test and not a benchmark: a diagnostic that shows what bounds the group commit. Runs n
 * writers doing compare-and-set on keys of their own (or creating fresh keys, with {@code create})
 * for a few seconds and prints their rate,
 * the batches written per second, the commits per batch, and the CPU the process used (in cores,
 * and in microseconds per commit), so one can tell whether the syncs or the CPU are the limit.
 * Ratios against raw RocksDB come from {@code lake-meta bench}; this explains them.
 *
 * <pre>{@code
 * java -cp <test classpath> io.lake.meta.rocks.GroupCommitProbe 16 SYNCED_WAL 5 [cas|create] [YIELD_THEN_PARK|PARK]
 * }</pre>
 */
public final class GroupCommitProbe {

    private GroupCommitProbe() {}

    public static void main(String[] args) throws Exception {
        int writers = Integer.parseInt(args[0]);
        Durability durability = Durability.valueOf(args[1]);
        long seconds = args.length > 2 ? Long.parseLong(args[2]) : 5;
        boolean creates = args.length > 3 && args[3].equals("create");
        WaitingWriters waiting = args.length > 4 ? WaitingWriters.valueOf(args[4]) : WaitingWriters.YIELD_THEN_PARK;
        Path directory = Files.createTempDirectory("group-commit-probe");
        OperatingSystemMXBean os = (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        try (RocksStore store = StoreOpener.open(
                directory, durability, waiting, true, RaceHooks.NONE, java.util.function.UnaryOperator.identity())) {
            AtomicBoolean stop = new AtomicBoolean();
            LongAdder commits = new LongAdder();
            Thread[] threads = new Thread[writers];
            for (int w = 0; w < writers; w++) {
                MetaKey key = MetaKey.of("probe/writer-" + w);
                MetaValue[] values = {MetaValue.utf8("a" + w), MetaValue.utf8("b" + w)};
                threads[w] = new Thread(
                        () -> {
                            store.create(key, values[0]);
                            int current = 0;
                            long fresh = 0;
                            while (!stop.get()) {
                                boolean applied = creates
                                        ? store.create(MetaKey.of(key + "/" + fresh++), values[0])
                                                .isApplied()
                                        : store.update(key, values[current], values[1 - current])
                                                .isApplied();
                                if (!applied) {
                                    throw new IllegalStateException("a writer's own key conflicted: " + key);
                                }
                                current = 1 - current;
                                commits.increment();
                            }
                        },
                        "probe-writer-" + w);
                threads[w].start();
            }
            Thread.sleep(2_000); // warm-up
            long batches0 = store.batchesWritten();
            long answered0 = store.commitsAnswered();
            long commits0 = commits.sum();
            long cpu0 = os.getProcessCpuTime();
            long start = System.nanoTime();
            Thread.sleep(seconds * 1_000);
            double elapsed = (System.nanoTime() - start) / 1e9;
            long batches = store.batchesWritten() - batches0;
            long answered = store.commitsAnswered() - answered0;
            long done = commits.sum() - commits0;
            double cpuSeconds = (os.getProcessCpuTime() - cpu0) / 1e9;
            stop.set(true);
            for (Thread thread : threads) {
                thread.join();
            }
            System.out.printf(
                    "writers=%d %s %s %s commits/s=%.0f batches/s=%.0f commits/batch=%.2f"
                            + " cpu=%.2f cores (%.1f us per commit) load=%s%n",
                    writers,
                    durability,
                    creates ? "create" : "cas",
                    waiting,
                    done / elapsed,
                    batches / elapsed,
                    (double) answered / batches,
                    cpuSeconds / elapsed,
                    cpuSeconds * 1e6 / done,
                    Files.readString(Path.of("/proc/loadavg")).trim());
        } finally {
            ProbeDirectory.delete(directory);
        }
    }
}
