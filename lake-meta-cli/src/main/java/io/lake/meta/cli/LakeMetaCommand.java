package io.lake.meta.cli;

import io.lake.meta.cli.bench.BenchCommand;
import io.lake.meta.cli.copy.CopyCommand;
import io.lake.meta.cli.demo.DemoCommand;
import io.lake.meta.cli.dynamo.DynamoLocalCommand;
import io.lake.meta.cli.dynamo.DynamoMigrateCommand;
import io.lake.meta.cli.kv.DeleteCommand;
import io.lake.meta.cli.kv.GetCommand;
import io.lake.meta.cli.kv.PutCommand;
import io.lake.meta.cli.kv.ScanCommand;
import io.lake.meta.cli.kv.TxnCommand;
import io.lake.meta.cli.kv.WatchCommand;
import io.lake.meta.cli.maintenance.MaintenanceCommand;
import io.lake.meta.cli.ops.OpsCommand;
import io.lake.meta.cli.tables.TablesCommand;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.UsageMessageSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.Spec;

/** The {@code lake-meta} command: the demo, the inspection commands and the standalone DynamoDB test server. */
@Command(
        name = "lake-meta",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = "Small, critical metadata kept safely: exact-bytes compare-and-set, guarded"
                + " mutations and bounded prefix pages.",
        exitCodeListHeading = ExitCodeHelp.HEADING,
        exitCodeList = {
            "0:success",
            "1:get: the key is absent (with --keys: one of them is); tables show, ops show: no such record",
            "2:bad input: usage, an argument that is not UTF-8 text, invalid key, value, limit or token, unknown store scheme, missing store directory or DynamoDB table, a directory that holds no readable lake-meta store, no AWS region or credentials found",
            "3:compare-and-set conflict, or a txn that did not apply: nothing was written",
            "4:store error: cannot open the store (DynamoDB unreachable or refusing), unavailable (DynamoDB: a request still failing after 10 seconds, retries included), outcome unknown, or a record that does not decode (named in the message); dynamo-local: the server cannot listen (port in use)",
            "70:internal error (a bug: please report it)"
        },
        footerHeading = "%nExamples:%n",
        footer = {
            "  lake-meta demo",
            "  lake-meta put --store rocks:/tmp/meta --create-store catalog/sales/orders v1",
            "  lake-meta scan --store rocks:/tmp/meta --prefix tbl/ --all",
            "  lake-meta get --store dynamo:meta --endpoint http://127.0.0.1:8000 \\",
            "      catalog/sales/orders --json",
            "  lake-meta help scan",
            "  source <(lake-meta generate-completion)"
        })
public final class LakeMetaCommand implements Callable<Integer> {

    /** The subcommands, in the order the help lists them. */
    private static final List<Class<?>> SUBCOMMANDS = List.of(
            DemoCommand.class,
            GetCommand.class,
            PutCommand.class,
            DeleteCommand.class,
            ScanCommand.class,
            CopyCommand.class,
            TxnCommand.class,
            WatchCommand.class,
            TablesCommand.class,
            MaintenanceCommand.class,
            OpsCommand.class,
            DynamoLocalCommand.class,
            DynamoMigrateCommand.class,
            BenchCommand.class,
            HelpCommand.class,
            AutoComplete.GenerateCompletion.class);

    /** What describes the whole tree: help and the completion script. */
    private static final Set<Class<?>> NEED_EVERY_COMMAND =
            Set.of(HelpCommand.class, AutoComplete.GenerateCompletion.class);

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        throw new ParameterException(
                spec.commandLine(),
                "missing command: choose one of "
                        + String.join(", ", spec.subcommands().keySet()));
    }

    /**
     * Runs the command with UTF-8 output and exits with its exit code. The JVM decoded
     * {@code args} from bytes: an argument that is not the text its bytes spelled is refused.
     */
    public static void main(String[] args) {
        PrintWriter out = new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), true);
        PrintWriter err = new PrintWriter(new OutputStreamWriter(System.err, StandardCharsets.UTF_8), true);
        if (args.length == 1 && (args[0].equals("--version") || args[0].equals("-V"))) {
            // what picocli prints for --version, without building its model: a fast answer to a frequent question
            for (String line : new VersionProvider().getVersion()) {
                out.println(line);
            }
            out.flush();
            System.exit(ExitCodes.OK);
        }
        int exitCode = commandLine(out, err, Optional.of(ArgvDecodingCheck.ofThisProcess(args)), subcommandsFor(args))
                .execute(args);
        out.flush();
        err.flush();
        System.exit(exitCode);
    }

    /**
     * The configured command line, writing to {@code out} and {@code err}; tests run it
     * in-process. Its arguments are taken as the exact strings given.
     */
    public static CommandLine commandLine(PrintWriter out, PrintWriter err) {
        return commandLine(out, err, Optional.empty(), SUBCOMMANDS);
    }

    /**
     * The subcommands a run needs: only the one it names (building every command's model costs a
     * start-up its own classes: the AWS SDK, JMH), none for {@code --version}, else all of them
     * (help, completion, a mistyped name that picocli answers with the names it knows).
     */
    static List<Class<?>> subcommandsFor(String[] args) {
        if (args.length == 1 && (args[0].equals("--version") || args[0].equals("-V"))) {
            return List.of();
        }
        if (args.length > 0) {
            for (Class<?> subcommand : SUBCOMMANDS) {
                String name = subcommand.getAnnotation(Command.class).name();
                if (name.equals(args[0]) && !NEED_EVERY_COMMAND.contains(subcommand)) {
                    return List.of(subcommand);
                }
            }
        }
        return SUBCOMMANDS;
    }

    /** As above; {@code decoded}, when present, checks arguments the JVM decoded from bytes before anything runs. */
    static CommandLine commandLine(
            PrintWriter out, PrintWriter err, Optional<ArgvDecodingCheck> decoded, List<Class<?>> subcommands) {
        ErrorHandler errors = new ErrorHandler();
        CommandLine commandLine = new CommandLine(new LakeMetaCommand());
        subcommands.forEach(commandLine::addSubcommand);
        commandLine.setOut(out);
        commandLine.setErr(err);
        // an argument such as @notes is a value, never the contents of a file named notes
        commandLine.setExpandAtFiles(false);
        describeLibraryCommands(commandLine);
        commandLine.setExecutionExceptionHandler(errors);
        commandLine.setParameterExceptionHandler(errors);
        decoded.ifPresent(arguments -> commandLine.setExecutionStrategy(parseResult -> {
            try {
                arguments.requireText(parseResult.originalArgs());
            } catch (UsageException e) {
                throw new ParameterException(executed(parseResult).commandLine(), e.getMessage());
            }
            return new CommandLine.RunLast().execute(parseResult);
        }));
        return commandLine;
    }

    /** picocli's own subcommands carry no annotations of ours: give them the sections every command's help has. */
    private static void describeLibraryCommands(CommandLine commandLine) {
        usage(
                commandLine,
                "help",
                new String[] {"0:the help was printed", ExitCodeHelp.GROUP_USAGE},
                "  lake-meta help",
                "  lake-meta help tables list");
        usage(
                commandLine,
                "generate-completion",
                new String[] {"0:the script was printed", "2:bad input"},
                "  source <(lake-meta generate-completion)        # bash or zsh, this shell only",
                "  lake-meta generate-completion > /etc/bash_completion.d/lake-meta");
    }

    private static void usage(CommandLine commandLine, String name, String[] exitCodes, String... examples) {
        if (!commandLine.getSubcommands().containsKey(name)) {
            return;
        }
        UsageMessageSpec usage =
                commandLine.getSubcommands().get(name).getCommandSpec().usageMessage();
        Map<String, String> codes = new LinkedHashMap<>();
        for (String code : exitCodes) {
            codes.put(code.substring(0, code.indexOf(':')), code.substring(code.indexOf(':') + 1));
        }
        usage.exitCodeListHeading(ExitCodeHelp.HEADING)
                .exitCodeList(codes)
                .footerHeading("%nExamples:%n")
                .footer(examples);
    }

    /** The (sub)command the arguments chose: the one the error names. */
    private static CommandSpec executed(ParseResult parseResult) {
        ParseResult last = parseResult;
        while (last.hasSubcommand()) {
            last = last.subcommand();
        }
        return last.commandSpec();
    }
}
