package io.lake.meta.testkit;

import java.util.Random;
import java.util.function.LongConsumer;

/**
 * The loop of a seeded explorer: runs one seed after another for a time budget, or replays one.
 * {@code -D<name>.seed=<seed>} replays a seed a failure named; {@code -D<name>.millis=<ms>}
 * explores longer than the default.
 */
public final class SeededRuns {

    private SeededRuns() {}

    /** Runs {@code run} on seeds from a random start until {@code defaultMillis} (or the property) have passed. */
    public static void explore(String name, long defaultMillis, LongConsumer run) {
        String only = System.getProperty(name + ".seed");
        if (only != null) {
            run.accept(Long.parseLong(only));
            return;
        }
        long end = System.nanoTime() + Long.getLong(name + ".millis", defaultMillis) * 1_000_000;
        long seed = new Random().nextLong();
        do {
            run.accept(seed);
            seed = seed * 6364136223846793005L + 1442695040888963407L; // the next seed, deterministically
        } while (System.nanoTime() < end);
    }
}
