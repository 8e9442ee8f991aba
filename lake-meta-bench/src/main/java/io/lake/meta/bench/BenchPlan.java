package io.lake.meta.bench;

import java.util.EnumSet;
import java.util.Set;

/**
 * How long and how large a run is. {@link #full()} is what {@code verification/performance.md}
 * records; {@link #quick()} gives a first look on a user's machine in a few minutes;
 * {@link #smoke()} only proves, in the default test run, that the machinery still runs.
 *
 * @param name printed with the report
 * @param rounds trials of each benchmark per backend, the backends alternating
 * @param forks JMH forks per trial (0 runs in this JVM)
 * @param warmups warm-up iterations of timed benchmarks
 * @param measurements measured iterations of timed benchmarks
 * @param iterationMillis length of one timed iteration
 * @param readKeys keys the point-read benchmark reads from
 * @param listedKeys keys in the listed family
 * @param loadedKeys keys one bulk load writes
 * @param bulkShots measured bulk loads per trial (after one warm-up load when more than one)
 * @param dynamoKeys keys in the family the DynamoDB cost model lists
 * @param postgresKeys keys in the family the PostgreSQL benchmarks read pages and batches from
 * @param groups the groups of benchmarks to run
 */
public record BenchPlan(
        String name,
        int rounds,
        int forks,
        int warmups,
        int measurements,
        int iterationMillis,
        int readKeys,
        int listedKeys,
        int loadedKeys,
        int bulkShots,
        int dynamoKeys,
        int postgresKeys,
        Set<Group> groups) {

    /** Benchmarks that run together, chosen with {@code --only}. */
    public enum Group {
        WRITES,
        HOTKEY,
        READS,
        LISTING,
        BULK,
        DYNAMO,
        POSTGRES
    }

    public BenchPlan {
        groups = Set.copyOf(groups);
    }

    /**
     * Every timed case warms up once before it measures; the bulk load too (one warm-up load, two
     * measured). Five rounds, not three: on a shared machine one slow round moves a median of three
     * by 0.1 or more, as much as some rows' margin to their targets.
     */
    public static BenchPlan full() {
        return new BenchPlan(
                "full", 5, 1, 1, 3, 2000, 10_000, 100_000, 1_000_000, 2, 2_500, 1_000, EnumSet.allOf(Group.class));
    }

    public static BenchPlan quick() {
        return new BenchPlan(
                "quick", 1, 1, 1, 2, 1000, 10_000, 100_000, 100_000, 1, 2_500, 1_000, EnumSet.allOf(Group.class));
    }

    /** One short point-read benchmark in this JVM, and the DynamoDB cost model on a small family. */
    public static BenchPlan smoke() {
        return new BenchPlan(
                "smoke", 1, 0, 0, 1, 200, 1_000, 1_000, 1_000, 1, 5, 200, EnumSet.of(Group.READS, Group.DYNAMO));
    }

    public BenchPlan only(Set<Group> chosen) {
        return new BenchPlan(
                name,
                rounds,
                forks,
                warmups,
                measurements,
                iterationMillis,
                readKeys,
                listedKeys,
                loadedKeys,
                bulkShots,
                dynamoKeys,
                postgresKeys,
                chosen);
    }
}
