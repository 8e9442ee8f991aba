package io.lake.meta.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The recipe commands' help, versions, exit-code footers and groups, without a store. */
class RecipeCommandsHelpTest {

    @Test
    void topLevelHelp_listsTheRecipeCommands() {
        Cli.Run run = Cli.run("--help");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.out()).contains("tables", "maintenance", "ops");
    }

    @ParameterizedTest
    @ValueSource(strings = {"tables list", "tables show", "maintenance run", "ops show"})
    void everyRecipeCommand_hasHelpWithItsExitCodes_andAVersion(String words) {
        String[] path = words.split(" ");
        Cli.Run help = Cli.run(path[0], path[1], "--help");
        Cli.Run version = Cli.run(path[0], path[1], "--version");

        assertThat(help.exitCode()).as(help.toString()).isZero();
        assertThat(help.out())
                .startsWith("Usage: lake-meta " + words)
                .contains("--store=SCHEME:LOCATION", "--json", "Exit codes:", "Examples:");
        assertThat(spacesSqueezed(help.out())).contains(" 0 ", " 2 bad input", " 4 store error");
        assertThat(help.out()).doesNotContain("--hex", "--base64");
        assertThat(version.out()).startsWith("lake-meta 0.1.0-SNAPSHOT");
    }

    @Test
    void showCommands_documentExit1ForAnAbsentRecord() {
        assertThat(spacesSqueezed(Cli.run("tables", "show", "--help").out())).contains(" 1 no such table");
        assertThat(spacesSqueezed(Cli.run("ops", "show", "--help").out())).contains(" 1 no such operation");
    }

    @ParameterizedTest
    @ValueSource(strings = {"tables", "maintenance", "ops"})
    void aGroupWithoutItsSubcommand_isAUsageError_namingTheChoices(String group) {
        Cli.Run run = Cli.run(group);

        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.out()).isEmpty();
        assertThat(run.err())
                .startsWith("lake-meta " + group + ": missing subcommand: choose one of ")
                .contains("Try 'lake-meta " + group + " --help'");
    }

    @Test
    void tablesGroup_namesListAndShow() {
        assertThat(Cli.run("tables").err())
                .startsWith("lake-meta tables: missing subcommand: choose one of list, show");
    }

    @Test
    void maintenanceRunHelp_statesThatItWritesNothing_andWhereItsLimitsComeFrom() {
        String help = Cli.run("maintenance", "run", "--help").out().replaceAll("\\s+", " ");

        assertThat(help)
                .contains(
                        "It writes nothing and takes no lock",
                        "LAKE_META_MAINTENANCE_PAGE_SIZE",
                        "LAKE_META_MAINTENANCE_INTERVAL",
                        "--page-size beats");
    }

    /** The exit-code table's columns are aligned with runs of spaces: compare the words. */
    static String spacesSqueezed(String help) {
        return help.replaceAll(" +", " ");
    }
}
