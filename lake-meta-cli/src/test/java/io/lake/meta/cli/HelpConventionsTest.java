package io.lake.meta.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

/**
 * The CLI's conventions, for every command in the tree (found by walking it, so a new command
 * cannot be forgotten): its help has an "Exit codes" section and an "Examples" section, every
 * example parses as the command it illustrates, and {@code --json} turns errors into JSON too.
 */
class HelpConventionsTest {

    private static final JsonMapper JSON = new JsonMapper();

    @TempDir
    Path temp;

    static Stream<String> everyCommand() {
        List<String> names = new ArrayList<>();
        walk(newCommandLine(), names);
        return names.stream();
    }

    private static void walk(CommandLine command, List<String> names) {
        names.add(command.getCommandSpec().qualifiedName());
        command.getSubcommands().values().stream().distinct().forEach(sub -> walk(sub, names));
    }

    @Test
    void theWalk_findsEveryCommand() {
        assertThat(everyCommand())
                .contains(
                        "lake-meta",
                        "lake-meta get",
                        "lake-meta tables list",
                        "lake-meta ops show",
                        "lake-meta maintenance run",
                        "lake-meta dynamo-migrate",
                        "lake-meta generate-completion",
                        "lake-meta help")
                .hasSizeGreaterThanOrEqualTo(19);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("everyCommand")
    void help_listsExitCodes_andGivesExamples(String name) {
        CommandLine command = find(newCommandLine(), name);
        String help = command.getUsageMessage(CommandLine.Help.Ansi.OFF);
        assertThat(command.getCommandSpec().usageMessage().exitCodeList())
                .as(name)
                .containsKey("0");
        assertThat(help).as(name).contains("Exit codes:").contains("Examples:");
        assertThat(examples(command)).as(name + ": its examples").isNotEmpty();
        assertThat(command.getCommandSpec().usageMessage().footer())
                .as("%s: example lines (picocli wraps longer ones, splitting an example)", name)
                .allSatisfy(
                        line -> assertThat(line.length()).as(line).isLessThanOrEqualTo(command.getUsageHelpWidth()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("everyCommand")
    void everyExample_parses_asTheCommandItIllustrates(String name) {
        for (List<String> example : examples(find(newCommandLine(), name))) {
            assertThat(example.get(0)).as("%s: %s", name, example).isEqualTo("lake-meta");
            List<String> args = example.subList(1, example.size());
            CommandLine parser = newCommandLine();
            assertThatCode(() -> parser.parseArgs(args.toArray(String[]::new)))
                    .as("%s: %s", name, example)
                    .doesNotThrowAnyException();
            CommandLine.ParseResult chosen = parser.getParseResult();
            while (chosen.hasSubcommand()) {
                chosen = chosen.subcommand();
            }
            String illustrated = chosen.commandSpec().qualifiedName();
            assertThat(name.equals("lake-meta")
                            || illustrated.equals(name)
                            || name.equals("lake-meta help")
                            || name.startsWith(illustrated + " ")
                            || illustrated.startsWith(name + " "))
                    .as("%s: example %s runs %s", name, example, illustrated)
                    .isTrue();
        }
    }

    @Test
    void anErrorOfACommandAskedForJson_isOneJsonObjectOnStdout_andTheLineOnStderr() throws Exception {
        Cli.Run run = Cli.run("get", "--store", "rocks:" + temp.resolve("missing"), "tbl/sales/orders", "--json");

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCodes.USAGE);
        JsonNode error = JSON.readTree(run.out()).get("error");
        assertThat(error.get("exitCode").asInt()).isEqualTo(2);
        assertThat(error.get("kind").asText()).isEqualTo("bad-input");
        assertThat(error.get("command").asText()).isEqualTo("lake-meta get");
        assertThat(error.get("message").asText()).contains("missing");
        assertThat(run.out().lines()).hasSize(1);
        assertThat(run.err()).startsWith("lake-meta get: ");
    }

    @Test
    void aParseErrorWithJson_isJsonToo() throws Exception {
        Cli.Run run = Cli.run("scan", "--store", "rocks:" + temp, "--prefix", "tbl/", "--limit", "many", "--json");

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCodes.USAGE);
        JsonNode error = JSON.readTree(run.out()).get("error");
        assertThat(error.get("kind").asText()).isEqualTo("bad-input");
        assertThat(error.get("command").asText()).isEqualTo("lake-meta scan");
        assertThat(error.get("message").asText()).contains("many");
    }

    @Test
    void withoutJson_anErrorLeavesStdoutEmpty() {
        Cli.Run run = Cli.run("get", "--store", "rocks:" + temp.resolve("missing"), "tbl/sales/orders");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).startsWith("lake-meta get: ");
    }

    private static CommandLine newCommandLine() {
        return LakeMetaCommand.commandLine(new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter()));
    }

    private static CommandLine find(CommandLine root, String qualifiedName) {
        if (root.getCommandSpec().qualifiedName().equals(qualifiedName)) {
            return root;
        }
        for (CommandLine sub : root.getSubcommands().values()) {
            if (qualifiedName.startsWith(sub.getCommandSpec().qualifiedName())) {
                CommandLine found = find(sub, qualifiedName);
                if (found != null) {
                    return found;
                }
            }
        }
        return null;
    }

    /**
     * The command lines of the help's Examples section, as a shell would split them: continuation
     * lines joined, comments dropped, the part after a pipe, environment assignments and
     * {@code source <(...)} taken off.
     */
    static List<List<String>> examples(CommandLine command) {
        List<List<String>> examples = new ArrayList<>();
        StringBuilder pending = new StringBuilder();
        for (String line : command.getCommandSpec().usageMessage().footer()) {
            String text = line.strip();
            if (text.isEmpty()) {
                continue;
            }
            if (text.endsWith("\\")) {
                pending.append(text, 0, text.length() - 1).append(' ');
                continue;
            }
            pending.append(text);
            List<String> words = ShellWords.split(pending.toString());
            pending.setLength(0);
            if (!words.isEmpty() && words.get(0).equals("export")) {
                continue; // sets the environment of the next example
            }
            int pipe = words.lastIndexOf("|");
            words = new ArrayList<>(words.subList(pipe + 1, words.size()));
            while (!words.isEmpty() && words.get(0).matches("[A-Z_]+=.*")) {
                words.remove(0);
            }
            if (words.size() >= 2
                    && words.get(0).equals("source")
                    && words.get(1).startsWith("<(")) {
                words = new ArrayList<>(words.subList(1, words.size()));
                words.set(0, words.get(0).substring(2));
                int last = words.size() - 1;
                words.set(last, words.get(last).replaceAll("\\)$", ""));
            }
            for (String redirect : List.of(">", "<")) {
                if (words.contains(redirect)) {
                    words = words.subList(0, words.indexOf(redirect));
                }
            }
            if (!words.isEmpty()) { // a line that is only a comment
                examples.add(words);
            }
        }
        return examples;
    }

    /** Splits a line as a POSIX shell does for the quoting the examples use; {@code #} starts a comment. */
    static final class ShellWords {

        static List<String> split(String line) {
            List<String> words = new ArrayList<>();
            StringBuilder word = new StringBuilder();
            boolean inWord = false;
            for (int i = 0; i < line.length(); i++) {
                char c = line.charAt(i);
                if (c == '\'') {
                    int end = line.indexOf('\'', i + 1);
                    word.append(line, i + 1, end);
                    i = end;
                    inWord = true;
                } else if (c == '"') {
                    int j = i + 1;
                    for (; line.charAt(j) != '"'; j++) {
                        if (line.charAt(j) == '\\') {
                            j++;
                        }
                        word.append(line.charAt(j));
                    }
                    i = j;
                    inWord = true;
                } else if (c == '#' && !inWord) {
                    break;
                } else if (Character.isWhitespace(c)) {
                    if (inWord) {
                        words.add(word.toString());
                        word.setLength(0);
                        inWord = false;
                    }
                } else {
                    word.append(c);
                    inWord = true;
                }
            }
            if (inWord) {
                words.add(word.toString());
            }
            return words;
        }
    }
}
