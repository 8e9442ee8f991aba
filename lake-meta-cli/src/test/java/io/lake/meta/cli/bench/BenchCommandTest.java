package io.lake.meta.cli.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lake.meta.cli.Cli;
import io.lake.meta.cli.ExitCodes;
import org.junit.jupiter.api.Test;

/** {@code bench} is wired: the DynamoDB cost model alone (exact counts, no timing) prints as JSON and as a table. */
class BenchCommandTest {

    @Test
    void onlyDynamo_json_listsEveryOperationWithItsRequestCount() throws Exception {
        Cli.Run run = Cli.run("bench", "--quick", "--only", "dynamo", "--json");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        JsonNode report = new ObjectMapper().readTree(run.out());
        assertThat(report.get("plan").asText()).isEqualTo("quick");
        JsonNode rows = report.get("rows");
        assertThat(rows).isNotEmpty();
        assertThat(rows.findValuesAsText("row"))
                .contains(
                        "DynamoDB point read: requests",
                        "DynamoDB full listing of a 5-key family, 16 shards, limit 1000: page calls");
        assertThat(run.err()).contains("running dynamo");
    }

    @Test
    void onlyDynamo_table_showsRatiosAndTargets() {
        Cli.Run run = Cli.run("bench", "--quick", "--only", "dynamo");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.out())
                .contains("| row | lake-meta | against | baseline | ratio | target | met | note |")
                .contains(
                        "| DynamoDB CAS (update): requests | 1.00 requests | one request | 1.00 | 1.00 | <= 1.00 | yes |");
    }

    /** The whole command with JMH (a point-read benchmark and its raw baseline): the table's shape, never a timing. */
    @Test
    void smokeRun_printsTheTableWithRatiosTargetsAndLoad() {
        Cli.Run run = Cli.run("bench", "--smoke");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.out())
                .startsWith("lake-meta bench (smoke run) on ")
                .contains("| row | lake-meta | against | baseline | ratio | target | met | note |")
                .containsPattern(
                        "\\| RocksDB point read, 1 thread \\| [0-9.,]+ ops/s \\| raw get, 1 thread \\| [0-9.,]+ \\| [0-9.,]+ \\| >= 0\\.90 \\| (yes|NO) \\|")
                .contains("| DynamoDB point read: requests |")
                .containsPattern("\\n  reads: .+ -> .+\\n")
                .contains("JMH's own output: ");
        assertThat(run.err()).contains("running reads", "running dynamo");
    }

    @Test
    void unknownGroup_isAUsageError() {
        Cli.Run run = Cli.run("bench", "--only", "everything");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).contains("everything");
    }

    @Test
    void postgresThatIsNotAJdbcUrl_isAUsageError_beforeAnythingRuns() {
        Cli.Run run = Cli.run("bench", "--only", "postgres", "--postgres", "db.internal:5432");

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err())
                .contains("jdbc:postgresql://host:port/database")
                .contains("PGUSER")
                .doesNotContain("running postgres");
    }

    @Test
    void postgresUrlCarryingAPassword_isAUsageError_thatDoesNotPrintIt() {
        Cli.Run run = Cli.run(
                "bench",
                "--only",
                "postgres",
                "--postgres",
                "jdbc:postgresql://127.0.0.1:5432/bench?user=bench&password=s3cret");

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).contains("PGPASSWORD").doesNotContain("s3cret").doesNotContain("running postgres");
    }

    /** The everyday jar leaves JMH out: there, the command runs the bench jar beside it; in the tests JMH is on the class path. */
    @Test
    void harness_isOnTheTestClassPath_soTheCommandRunsInProcess() {
        assertThat(BenchCommand.harnessPresent()).isTrue();
        assertThat(BenchCommand.benchJarBesideThisJar()).isEmpty(); // target/classes, not a -all.jar
    }
}
