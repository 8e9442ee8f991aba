package io.lake.meta.cli;

import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** The {@code lake-meta} command: the demo, the inspection commands and the standalone DynamoDB test server. */
@Command(
        name = "lake-meta",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = "Small, critical metadata kept safely: exact-bytes compare-and-set, guarded"
                + " mutations and bounded prefix pages.",
        subcommands = {
            DemoCommand.class,
            GetCommand.class,
            PutCommand.class,
            DeleteCommand.class,
            ScanCommand.class,
            DynamoLocalCommand.class,
            CommandLine.HelpCommand.class
        },
        footerHeading = "%nExit codes:%n",
        footer = {
            "  0   success",
            "  1   get: the key is absent",
            "  2   bad input: usage, invalid key, value, limit or token, unknown store",
            "      scheme, missing store directory or DynamoDB table, a directory",
            "      that holds no readable lake-meta store, no AWS region or",
            "      credentials found",
            "  3   compare-and-set conflict: nothing was written",
            "  4   store error: cannot open the store (DynamoDB unreachable or refusing),",
            "      unavailable (DynamoDB: a request still failing after 10 seconds,",
            "      retries included), or outcome unknown;",
            "      dynamo-local: the server cannot listen (port in use)",
            "  70  internal error (a bug: please report it)"
        })
public final class LakeMetaCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        throw new ParameterException(spec.commandLine(), "missing command: choose one of "
                + String.join(", ", spec.subcommands().keySet()));
    }

    /** Runs the command with UTF-8 output and exits with its exit code. */
    public static void main(String[] args) {
        PrintWriter out = new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), true);
        PrintWriter err = new PrintWriter(new OutputStreamWriter(System.err, StandardCharsets.UTF_8), true);
        int exitCode = commandLine(out, err).execute(args);
        out.flush();
        err.flush();
        System.exit(exitCode);
    }

    /**
     * The configured command line, writing to {@code out} and {@code err}; tests run it in-process.
     */
    public static CommandLine commandLine(PrintWriter out, PrintWriter err) {
        ErrorHandler errors = new ErrorHandler();
        CommandLine commandLine = new CommandLine(new LakeMetaCommand());
        commandLine.setOut(out);
        commandLine.setErr(err);
        commandLine.setExecutionExceptionHandler(errors);
        commandLine.setParameterExceptionHandler(errors);
        return commandLine;
    }
}
