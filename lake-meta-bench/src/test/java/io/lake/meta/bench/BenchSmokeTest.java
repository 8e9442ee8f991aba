package io.lake.meta.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Proves the bench still runs: one short point-read benchmark in this JVM against its raw
 * baseline, and the DynamoDB cost model on the in-process server. It checks that the machinery
 * produces rows, never how fast anything is (the cost model's counts are exact, not timings).
 */
class BenchSmokeTest {

    @TempDir
    Path dir;

    @Test
    void smokePlan_measuresPointReadsAgainstRawGets_andCountsDynamoRequests() throws Exception {
        StringWriter progress = new StringWriter();
        Path log = dir.resolve("jmh.log");
        BenchReport report = new BenchSuite(BenchPlan.smoke(), log, new PrintWriter(progress)).run();

        BenchRow reads = row(report, "RocksDB point read, 1 thread");
        assertThat(reads.value()).isPositive();
        assertThat(reads.baseline()).isPositive();
        assertThat(Files.readString(log)).contains("ReadBenchmark.get1");

        assertThat(row(report, "DynamoDB CAS (update): requests").value()).isEqualTo(1);
        assertThat(row(report, "DynamoDB guarded mutation: requests").note()).startsWith("1 TransactWriteItems");
        assertThat(report.toText()).contains("| RocksDB point read, 1 thread |").contains("load average");
        assertThat(report.toJson()).contains("\"row\" : \"DynamoDB point read: requests\"");
        assertThat(progress.toString()).contains("running reads").contains("running dynamo");
    }

    /**
     * The PostgreSQL rows on the server the bench starts (the tests' launcher, binaries from Maven):
     * each benchmark once, briefly, in this JVM. Only that the figures are sane, never how fast:
     * rates are positive, and the round trips are counted (CAS takes more than one, a plain
     * {@code UPDATE} exactly one, a page and {@code getAll} one statement each).
     */
    @Test
    void postgresGroup_measuresEachOperationAgainstPlainJdbc_andCountsRoundTrips() throws Exception {
        StringWriter progress = new StringWriter();
        Path log = dir.resolve("jmh-postgres.log");
        BenchReport report = new BenchSuite(
                        BenchPlan.smoke().only(java.util.Set.of(BenchPlan.Group.POSTGRES)),
                        log,
                        new PrintWriter(progress))
                .run();

        for (String name : java.util.List.of(
                "PostgreSQL CAS, 1 thread",
                "PostgreSQL CAS, 16 threads",
                "PostgreSQL first page of 100 of a 200-key family",
                "PostgreSQL getAll of 16 keys")) {
            BenchRow row = row(report, name);
            assertThat(row.value()).as(name).isPositive();
            assertThat(row.baseline()).as(name).isPositive();
            assertThat(row.unit()).isEqualTo("ops/s");
        }
        BenchRow cas = row(report, "PostgreSQL CAS (update): round trips");
        assertThat(cas.baseline()).isEqualTo(1.0);
        assertThat(cas.value()).isGreaterThan(1.0).isEqualTo(Math.rint(cas.value())); // whole round trips per call
        assertThat(row(report, "PostgreSQL first page of 100: round trips").baseline())
                .isEqualTo(1.0);
        assertThat(row(report, "PostgreSQL getAll of 16 keys: round trips").value())
                .isEqualTo(1.0);
        assertThat(Files.readString(log)).contains("PostgresBenchmark.cas16").contains("RAW_JDBC");
        assertThat(report.toText()).contains("| PostgreSQL CAS, 16 threads |").contains("postgres: ");
        assertThat(progress.toString()).contains("running postgres");
    }

    @Test
    void hotKeyCounters_areRatesLikeThePrimaryScore_soSuccessesCompareWithPutsPerSecond() throws Exception {
        RunResult result = new Runner(new OptionsBuilder()
                        .include("^" + HotKeyBenchmark.class.getName().replace(".", "\\.") + "\\.readThenCas$")
                        .forks(0)
                        .warmupIterations(0)
                        .measurementIterations(1)
                        .measurementTime(TimeValue.milliseconds(300))
                        .shouldFailOnError(true)
                        .output(dir.resolve("hotkey.log").toString())
                        .build())
                .runSingle();

        double attempts = result.getPrimaryResult().getScore();
        double successes = result.getSecondaryResults().get("successes").getScore();
        double conflicts = result.getSecondaryResults().get("conflicts").getScore();
        assertThat(result.getPrimaryResult().getScoreUnit()).isEqualTo("ops/s");
        assertThat(successes).isPositive();
        // every attempt is a success or a conflict; counted per second like the primary score, not per iteration
        assertThat(successes + conflicts).isCloseTo(attempts, org.assertj.core.data.Percentage.withPercentage(5));
    }

    private static BenchRow row(BenchReport report, String name) {
        return report.rows().stream()
                .filter(r -> r.row().equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no row '" + name + "' in " + report.toText()));
    }
}
