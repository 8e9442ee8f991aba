package io.lake.meta.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.lake.meta.cli.kv.GetCommand;
import io.lake.meta.cli.tables.TablesCommand;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A run builds the model of the command it runs only: start-up does not pay for the others. */
class LazySubcommandsTest {

    @Test
    void aRun_buildsOnlyTheSubcommandItNames() {
        assertThat(LakeMetaCommand.subcommandsFor(new String[] {"--version"})).isEmpty();
        assertThat(LakeMetaCommand.subcommandsFor(new String[] {"get", "--store", "rocks:x", "k"}))
                .containsExactly(GetCommand.class);
        assertThat(LakeMetaCommand.subcommandsFor(new String[] {"tables", "list"}))
                .containsExactly(TablesCommand.class);
    }

    @Test
    void help_completion_noCommand_andAMistypedOne_buildThemAll() {
        int all = LakeMetaCommand.subcommandsFor(new String[0]).size();
        assertThat(all).isGreaterThanOrEqualTo(15);
        assertThat(LakeMetaCommand.subcommandsFor(new String[] {"help", "get"})).hasSize(all);
        assertThat(LakeMetaCommand.subcommandsFor(new String[] {"--help"})).hasSize(all);
        assertThat(LakeMetaCommand.subcommandsFor(new String[] {"gte"})).hasSize(all);
        assertThat(LakeMetaCommand.subcommandsFor(new String[] {"generate-completion"}))
                .as("its script names every command")
                .hasSize(all);
    }

    @TempDir
    Path temp;

    @Test
    void theVersion_ofTheProcess_isWhatPicocliPrints() throws Exception {
        Cli.Run child = ChildCli.run("C.UTF-8", temp, List.of("--version"));
        Cli.Run picocli = Cli.run("--version");

        assertThat(child.exitCode()).as(child.toString()).isZero();
        assertThat(child.out()).isEqualTo(picocli.out()).startsWith("lake-meta ");
        assertThat(child.err()).isEmpty();
    }

    @Test
    void theVersion_withNoSubcommandBuilt_printsTheVersion() {
        StringWriter out = new StringWriter();
        int exit = LakeMetaCommand.commandLine(
                        new PrintWriter(out, true),
                        new PrintWriter(new StringWriter(), true),
                        Optional.empty(),
                        LakeMetaCommand.subcommandsFor(new String[] {"--version"}))
                .execute("--version");
        assertThat(exit).isZero();
        assertThat(out.toString()).startsWith("lake-meta ");
    }
}
