package io.lake.meta.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** Every command's help gives examples and its exit codes, and every example is a command line lake-meta accepts. */
class HelpExamplesTest {

    private static CommandLine root() {
        return LakeMetaCommand.commandLine(new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()));
    }

    /** The commands a user runs: those without subcommands of their own, but picocli's help. */
    private static List<CommandLine> runnableCommands(CommandLine command) {
        List<CommandLine> found = new ArrayList<>();
        for (CommandLine sub : command.getSubcommands().values()) {
            if (sub.getCommandName().equals("help") || found.contains(sub)) {
                continue;
            }
            if (sub.getSubcommands().isEmpty()) {
                found.add(sub);
            } else {
                found.addAll(runnableCommands(sub));
            }
        }
        return found;
    }

    /** The example command lines of a help text, continuation lines joined, each from its {@code lake-meta}. */
    private static List<String> examplesIn(String help) {
        String examples = help.substring(help.indexOf("Examples:"), help.indexOf("Exit codes:"));
        List<String> lines = new ArrayList<>();
        for (String line : examples.replace("\\\n", " ").split("\n")) {
            int start = line.lastIndexOf("lake-meta ");
            if (start >= 0) {
                lines.add(line.substring(start + "lake-meta ".length()).trim());
            }
        }
        return lines;
    }

    /** Splits at spaces, keeping single-quoted text together, as a shell does for these examples. */
    private static String[] words(String line) {
        List<String> words = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        boolean quoted = false;
        for (char c : line.toCharArray()) {
            if (c == '\'') {
                quoted = !quoted;
            } else if (c == ' ' && !quoted) {
                if (!word.isEmpty()) {
                    words.add(word.toString());
                    word.setLength(0);
                }
            } else {
                word.append(c);
            }
        }
        if (!word.isEmpty()) {
            words.add(word.toString());
        }
        return words.toArray(String[]::new);
    }

    @Test
    void everyCommandsHelp_givesExamplesAndItsExitCodes() {
        List<CommandLine> commands = runnableCommands(root());
        assertThat(commands).extracting(CommandLine::getCommandName)
                .contains("get", "put", "delete", "scan", "txn", "watch", "list", "show", "run", "demo", "dynamo-local",
                        "dynamo-migrate");
        for (CommandLine command : commands) {
            if (command.getCommandName().equals("generate-completion")) {
                continue; // picocli's own, with its own help
            }
            String help = command.getUsageMessage(CommandLine.Help.Ansi.OFF);
            assertThat(help).as("help of %s", command.getCommandSpec().qualifiedName())
                    .contains("Examples:", "Exit codes:");
            assertThat(examplesIn(help)).as("examples of %s", command.getCommandSpec().qualifiedName()).isNotEmpty();
            assertThat(command.getCommandSpec().usageMessage().footer())
                    .as("footer lines of %s (picocli wraps longer ones, splitting an example)", command.getCommandSpec().qualifiedName())
                    .allSatisfy(line -> assertThat(line.length()).as(line).isLessThanOrEqualTo(command.getUsageHelpWidth()));
        }
    }

    @Test
    void everyExample_parses() {
        for (CommandLine command : runnableCommands(root())) {
            String help = command.getUsageMessage(CommandLine.Help.Ansi.OFF);
            if (!help.contains("Examples:")) {
                continue;
            }
            for (String example : examplesIn(help)) {
                assertThatCode(() -> root().parseArgs(words(example))).as("lake-meta %s", example).doesNotThrowAnyException();
            }
        }
    }
}
