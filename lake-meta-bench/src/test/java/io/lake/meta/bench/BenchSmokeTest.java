package io.lake.meta.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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

    private static BenchRow row(BenchReport report, String name) {
        return report.rows().stream().filter(r -> r.row().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no row '" + name + "' in " + report.toText()));
    }
}
