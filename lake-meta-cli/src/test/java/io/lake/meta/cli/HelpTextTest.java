package io.lake.meta.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

/**
 * Help that reads well: every summary in a command list is a whole sentence, descriptions are
 * paragraphs that picocli wraps (never lines broken by hand mid-sentence), exit codes are listed
 * in order, and {@code help} finds nested commands.
 */
class HelpTextTest {

    static Stream<String> everyCommand() {
        return HelpConventionsTest.everyCommand();
    }

    private static CommandLine find(String qualifiedName) {
        CommandLine command =
                LakeMetaCommand.commandLine(new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()));
        for (String part : qualifiedName.split(" ")) {
            if (!part.equals("lake-meta")) {
                command = command.getSubcommands().get(part);
            }
        }
        return command;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("everyCommand")
    void summary_isAWholeSentence(String name) {
        String[] description = find(name).getCommandSpec().usageMessage().description();
        if (description.length > 0) {
            assertThat(description[0])
                    .as("%s: the summary shown in its parent's command list", name)
                    .matches("(?s).*[.:]");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("everyCommand")
    void description_hasNoHandMadeLineBreaksMidSentence(String name) {
        String[] description = find(name).getCommandSpec().usageMessage().description();
        List<String> fragments = new ArrayList<>();
        for (String line : description) {
            // a paragraph ends a sentence or opens a list; indented lines are the list's literal items
            if (!line.startsWith(" ") && !line.isEmpty() && !line.matches("(?s).*[.:)]")) {
                fragments.add(line);
            }
        }
        assertThat(fragments)
                .as("%s: description lines that stop mid-sentence (picocli re-wraps each into a ragged fragment)", name)
                .isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("everyCommand")
    void exitCodes_areListedInOrder(String name) {
        List<Integer> codes = find(name).getCommandSpec().usageMessage().exitCodeList().keySet().stream()
                .map(code -> Integer.parseInt(code.trim().split("-")[0]))
                .toList(); // "1-4": a range
        assertThat(codes).as(name).isSorted();
    }

    @Test
    void help_ofANestedCommand_printsThatCommandsHelp() {
        Cli.Run run = Cli.run("help", "tables", "list");
        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(run.out()).as(run.toString()).contains("Usage: lake-meta tables list");
    }

    @Test
    void help_ofAnUnknownNestedCommand_isAUsageError() {
        Cli.Run run = Cli.run("help", "tables", "nope");
        assertThat(run.exitCode()).as(run.toString()).isEqualTo(2);
        assertThat(run.err()).as(run.toString()).contains("nope");
    }
}
