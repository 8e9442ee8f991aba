package io.lake.meta.cli;

import io.lake.meta.InvalidArgumentException;
import io.lake.meta.MetaStoreException;
import io.lake.meta.cli.store.RequestBudget;
import io.lake.meta.copy.CopyRefusedException;
import java.io.PrintWriter;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * Turns every failure into an exit code and a one-line message on stderr. User errors never
 * print a stack trace; only an unexpected exception (a bug) does. When the command was asked for
 * {@code --json}, standard output also gets the error as the one JSON object a script reads
 * there: {@code {"error":{"exitCode":2,"kind":"bad-input","message":"..."}}}.
 */
public final class ErrorHandler implements IExecutionExceptionHandler, IParameterExceptionHandler {

    /** The handler {@link LakeMetaCommand} installs; other packages use {@link #printError} only. */
    ErrorHandler() {}

    @Override
    public int handleParseException(ParameterException ex, String[] args) {
        CommandLine command = ex.getCommandLine();
        PrintWriter err = command.getErr();
        printError(command, ex.getMessage());
        printJsonError(command, args, ExitCodes.USAGE, ex.getMessage());
        UnmatchedArgumentException.printSuggestions(ex, err);
        err.println("Try '" + command.getCommandSpec().qualifiedName() + " --help' for more information.");
        err.flush();
        return ExitCodes.USAGE;
    }

    @Override
    public int handleExecutionException(Exception ex, CommandLine command, ParseResult parseResult) {
        int exitCode = exitCodeFor(ex);
        if (exitCode == ExitCodes.INTERNAL_ERROR) {
            printError(command, "internal error: " + ex);
            ex.printStackTrace(command.getErr());
            command.getErr().flush();
        } else {
            printError(command, ex.getMessage() + RequestBudget.explain(ex));
        }
        String[] args =
                parseResult == null ? new String[0] : parseResult.originalArgs().toArray(String[]::new);
        printJsonError(
                command,
                args,
                exitCode,
                exitCode == ExitCodes.INTERNAL_ERROR
                        ? "internal error: " + ex
                        : ex.getMessage() + RequestBudget.explain(ex));
        return exitCode;
    }

    static int exitCodeFor(Exception ex) {
        if (ex instanceof UsageException || ex instanceof InvalidArgumentException) {
            return ExitCodes.USAGE;
        }
        if (ex instanceof CopyRefusedException) {
            return ExitCodes.CONFLICT; // the target's state refuses the copy, as a conflict refuses a write
        }
        if (ex instanceof StoreOpenException
                || ex instanceof ServerStartException
                || ex instanceof MetaStoreException) {
            return ExitCodes.STORE_ERROR;
        }
        return ExitCodes.INTERNAL_ERROR;
    }

    /**
     * With {@code --json} among {@code args} and an option of that name on the failing command,
     * prints the error as one JSON object on stdout.
     */
    static void printJsonError(CommandLine command, String[] args, int exitCode, @Nullable String message) {
        if (command.getCommandSpec().findOption("--json") == null
                || !Arrays.asList(args).contains("--json")) {
            return;
        }
        Map<String, Object> error = new LinkedHashMap<>();
        error.put("exitCode", exitCode);
        error.put("kind", kind(exitCode));
        error.put("command", command.getCommandSpec().qualifiedName());
        error.put("message", oneLine(message));
        command.getOut().println(Json.write(Map.of("error", error)));
        command.getOut().flush();
    }

    private static String kind(int exitCode) {
        return switch (exitCode) {
            case ExitCodes.USAGE -> "bad-input";
            case ExitCodes.CONFLICT -> "conflict";
            case ExitCodes.STORE_ERROR -> "store-error";
            case ExitCodes.INTERNAL_ERROR -> "internal-error";
            default -> "exit-" + exitCode;
        };
    }

    private static String oneLine(@Nullable String message) {
        return String.valueOf(message).replaceAll("\\s*\\R\\s*", " ").strip();
    }

    /** Prints {@code lake-meta <command>: message} on one line of stderr. */
    public static void printError(CommandLine command, @Nullable String message) {
        command.getErr().println(command.getCommandSpec().qualifiedName() + ": " + oneLine(message));
        command.getErr().flush();
    }
}
