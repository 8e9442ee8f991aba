package io.lake.meta.reliability.crash;

import io.lake.meta.MetaStore;
import io.lake.meta.reliability.MixedWorkload;
import io.lake.meta.rocks.Durability;
import io.lake.meta.rocks.RocksDbMetaStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.LongAdder;

/**
 * The child JVM of the crash suite: opens the RocksDB store, runs {@link MixedWorkload} writers
 * through a {@link JournalingStore} each, and never stops on its own until the parent kills it
 * (it halts by itself after {@code maxMillis}, or when its stdin closes, so a lost parent leaves
 * no process behind).
 *
 * <p>Arguments: {@code DIR JOURNAL_DIR SEED TAG WRITERS MAX_MILLIS DURABILITY [wal-sizes]}; with
 * {@code wal-sizes} the size of the newest WAL file is journaled after every answer.
 */
public final class CrashWriterMain {

    private CrashWriterMain() {}

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        Path journals = Path.of(args[1]);
        long seed = Long.parseLong(args[2]);
        String tag = args[3];
        int writers = Integer.parseInt(args[4]);
        long maxMillis = Long.parseLong(args[5]);
        Durability durability = Durability.valueOf(args[6]);
        WalFiles wal = args.length > 7 && args[7].equals("wal-sizes") ? new WalFiles(dir) : null;
        startWatchdog(maxMillis);

        Journal marks = new Journal(journals.resolve("marks.log"));
        marks.line("OPENING " + System.nanoTime());
        MetaStore store =
                RocksDbMetaStore.builder().directory(dir).durability(durability).build();
        marks.line("OPENED " + System.nanoTime());

        Map<String, LongAdder> errors = MixedWorkload.errorCounts();
        List<Thread> threads = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
            Journal journal = new Journal(journals.resolve("writer-" + w + ".log"));
            MixedWorkload workload = new MixedWorkload(
                    w, tag, new Random(seed + w), new JournalingStore(store, journal, w * 1_000_000_000L, wal), errors);
            Thread t = new Thread(
                    () -> {
                        while (true) {
                            workload.step();
                        }
                    },
                    "writer-" + w);
            t.setDaemon(true);
            threads.add(t);
        }
        threads.forEach(Thread::start);
        for (Thread t : threads) {
            t.join();
        }
    }

    /** Halts after {@code maxMillis}, or as soon as stdin reaches its end (the parent is gone). */
    private static void startWatchdog(long maxMillis) {
        Thread stdin = new Thread(
                () -> {
                    try {
                        while (System.in.read() >= 0) {
                            // the parent never writes; the end of stdin means it is gone
                        }
                    } catch (Exception e) {
                        // fall through to halt
                    }
                    Runtime.getRuntime().halt(3);
                },
                "stdin-watch");
        stdin.setDaemon(true);
        stdin.start();
        Thread timer = new Thread(
                () -> {
                    try {
                        Thread.sleep(maxMillis);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    Runtime.getRuntime().halt(4);
                },
                "max-time");
        timer.setDaemon(true);
        timer.start();
    }
}
