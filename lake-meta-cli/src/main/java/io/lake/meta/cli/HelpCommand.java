package io.lake.meta.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Help;
import picocli.CommandLine.IHelpCommandInitializable2;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;

/**
 * {@code help [COMMAND...]}: the help of a command, nested ones included ({@code help tables list}),
 * where picocli's own help command reads only the first name.
 */
@Command(
        name = "help",
        helpCommand = true,
        description = "Print the help of lake-meta, or of the command named (nested: help tables list).")
final class HelpCommand implements IHelpCommandInitializable2, Runnable {

    @Parameters(paramLabel = "COMMAND", arity = "0..*", description = "The command, with its subcommands: tables list.")
    List<String> commands = new ArrayList<>();

    private CommandLine self;
    private PrintWriter out;
    private Help.ColorScheme colorScheme;

    @Override
    public void init(CommandLine helpCommandLine, Help.ColorScheme colorScheme, PrintWriter out, PrintWriter err) {
        this.self = helpCommandLine;
        this.colorScheme = colorScheme;
        this.out = out;
    }

    @Override
    public void run() {
        CommandLine command = self.getParent();
        for (String name : commands) {
            CommandLine sub = command.getSubcommands().get(name);
            if (sub == null) {
                throw new ParameterException(
                        self,
                        "unknown command '" + name + "' under '"
                                + command.getCommandSpec().qualifiedName() + "': choose one of "
                                + String.join(", ", command.getSubcommands().keySet()));
            }
            command = sub;
        }
        command.usage(out, colorScheme);
    }
}
