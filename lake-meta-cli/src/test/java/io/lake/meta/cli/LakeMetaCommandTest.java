package io.lake.meta.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.lake.meta.cli.store.RequestBudget;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class LakeMetaCommandTest {

    @Test
    void version_printsTheProjectVersion() {
        Cli.Run run = Cli.run("--version");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.out()).startsWith("lake-meta 0.1.0-SNAPSHOT").contains("Java ");
    }

    @Test
    void help_listsEveryCommandAndTheExitCodes() {
        Cli.Run run = Cli.run("--help");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.out())
                .contains("demo", "get", "put", "delete", "scan", "dynamo-local")
                .contains("Exit codes:", "Examples:");
        assertThat(RecipeCommandsHelpTest.spacesSqueezed(run.out()))
                .contains(" 3 compare-and-set conflict", " 4 store error");
    }

    @ParameterizedTest
    @ValueSource(strings = {"get", "put", "delete", "scan"})
    void storeCommandHelp_statesTheDynamoRequestBudget(String command) {
        Cli.Run help = Cli.run(command, "--help");

        assertThat(help.out().replaceAll("\\s+", " "))
                .contains("each DynamoDB request gives up after " + RequestBudget.PER_REQUEST.toSeconds()
                        + " seconds, retries included");
    }

    @ParameterizedTest
    @ValueSource(strings = {"demo", "get", "put", "delete", "scan", "dynamo-local"})
    void everyCommand_hasHelpAndVersion(String command) {
        Cli.Run help = Cli.run(command, "--help");
        Cli.Run version = Cli.run(command, "--version");

        assertThat(help.exitCode()).as(help.toString()).isZero();
        assertThat(help.out()).startsWith("Usage: lake-meta " + command);
        assertThat(version.exitCode()).as(version.toString()).isZero();
        assertThat(version.out()).startsWith("lake-meta 0.1.0-SNAPSHOT");
    }

    @Test
    void dynamoMigrateHelp_listsItsActions() {
        Cli.Run run = Cli.run("dynamo-migrate", "--help");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        String commands =
                run.out().substring(run.out().indexOf("Commands:"), run.out().indexOf("Exit codes:"));
        assertThat(commands.lines()
                        .filter(line -> line.matches("  [a-z-]+ .*"))
                        .map(line -> line.strip().split(" ")[0]))
                .containsExactly("status", "backfill", "finalize", "rollback", "release-barrier", "declare-horizon");
        assertThat(run.out()).as("the deprecated flag form is not offered").doesNotContain("--finalize ", "--status ");
    }

    @ParameterizedTest
    @ValueSource(strings = {"status", "backfill", "finalize", "rollback", "release-barrier", "declare-horizon"})
    void everyDynamoMigrateAction_hasHelpAndVersion(String action) {
        Cli.Run help = Cli.run("dynamo-migrate", action, "--help");
        Cli.Run version = Cli.run("dynamo-migrate", action, "--version");

        assertThat(help.exitCode()).as(help.toString()).isZero();
        assertThat(help.out())
                .startsWith("Usage: lake-meta dynamo-migrate " + action + " ")
                .contains("--legacy-table=T1", "--table=T2", "--endpoint=URL", "--region=R", "--shards=N", "--json");
        assertThat(version.exitCode()).as(version.toString()).isZero();
        assertThat(version.out()).startsWith("lake-meta 0.1.0-SNAPSHOT");
    }

    @Test
    void noCommand_isAUsageError() {
        Cli.Run run = Cli.run();

        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err())
                .startsWith("lake-meta: missing command: choose one of demo, get, put, delete, scan, copy, txn, watch");
    }

    @Test
    void unknownCommand_suggestsTheClosestOne() {
        Cli.Run run = Cli.run("gett");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err())
                .contains("Unmatched argument at index 0: 'gett'", "lake-meta get")
                .contains("Try 'lake-meta --help' for more information.");
        assertThat(run.out()).isEmpty();
    }

    @Test
    void missingRequiredOption_namesItOnOneLine() {
        Cli.Run run = Cli.run("get", "tbl/a/b");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err().lines().findFirst())
                .hasValue("lake-meta get: Missing required option: '--store=SCHEME:LOCATION'");
        assertThat(run.err()).doesNotContain("Exception", "\tat ");
    }

    @Test
    void unknownStoreScheme_isAUsageError() {
        Cli.Run run = Cli.run("get", "--store", "etcd:tables", "tbl/a/b");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err().lines().findFirst())
                .hasValue(
                        "lake-meta get: Invalid value for option '--store':"
                                + " unknown store scheme 'etcd' in 'etcd:tables': the supported schemes are rocks:DIR, dynamo:TABLE or postgres:JDBC-URL");
    }

    @Test
    void storeWithoutScheme_isAUsageError() {
        Cli.Run run = Cli.run("scan", "--store", "/var/lib/meta", "--prefix", "tbl/");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err())
                .contains("'/var/lib/meta' names no store scheme: write rocks:DIR, dynamo:TABLE or postgres:JDBC-URL");
    }

    @Test
    void hexAndBase64Together_isAUsageError() {
        Cli.Run run = Cli.run("put", "--store", "rocks:unused", "--hex", "--base64", "tbl/a/b", "00");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err())
                .isEqualTo("lake-meta put: --hex and --base64 exclude each other: choose one" + System.lineSeparator());
    }

    @Test
    void expectAndCreateTogether_isAUsageError() {
        Cli.Run run = Cli.run("put", "--store", "rocks:unused", "tbl/a/b", "v", "--expect", "old", "--create");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).contains("--expect=OLD, --create are mutually exclusive");
    }
}
