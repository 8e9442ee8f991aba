package io.lake.meta.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Shell completion, from picocli's AutoComplete: {@code source <(lake-meta generate-completion)}. */
class CompletionTest {

    @Test
    void generateCompletion_printsABashAndZshScriptCoveringTheSubcommands() {
        Cli.Run run = Cli.run("generate-completion");

        assertThat(run.exitCode()).isZero();
        assertThat(run.out())
                .contains("complete -F")
                .contains("_picocli_lake-meta")
                .contains("scan")
                .contains("txn")
                .contains("dynamo-local");
    }
}
