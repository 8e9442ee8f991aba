package io.lake.meta.cli;

import io.lake.meta.InvalidArgumentException;
import io.lake.meta.MetaStoreException;
import java.io.PrintWriter;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * Turns every failure into an exit code and a one-line message on stderr. User errors never
 * print a stack trace; only an unexpected exception (a bug) does. With {@code --json} the error is
 * also one JSON object on stdout ({@code {"error": MESSAGE, "exitCode": N}}), so a script that
 * parses stdout gets an answer for a failure too.
 */
final class ErrorHandler implements IExecutionExceptionHandler, IParameterExceptionHandler {

    @Override
    public int handleParseException(ParameterException ex, String[] args) {
        CommandLine command = ex.getCommandLine();
        PrintWriter err = command.getErr();
        printError(command, ex.getMessage());
        if (Arrays.asList(args).contains("--json") && offersJson(command)) {
            printJsonError(command, ex.getMessage(), ExitCodes.USAGE);
        }
        UnmatchedArgumentException.printSuggestions(ex, err);
        err.println("Try '" + command.getCommandSpec().qualifiedName() + " --help' for more information.");
        err.flush();
        return ExitCodes.USAGE;
    }

    @Override
    public int handleExecutionException(Exception ex, CommandLine command, ParseResult parseResult) {
        int exitCode = exitCodeFor(ex);
        String message;
        if (exitCode == ExitCodes.INTERNAL_ERROR) {
            message = "internal error: " + ex;
            printError(command, message);
            ex.printStackTrace(command.getErr());
            command.getErr().flush();
        } else {
            message = ex.getMessage() + RequestBudget.explain(ex);
            printError(command, message);
        }
        if (asksForJson(parseResult)) {
            printJsonError(command, message, exitCode);
        }
        return exitCode;
    }

    /** Whether the command that ran was given {@code --json}. */
    private static boolean asksForJson(ParseResult parseResult) {
        if (parseResult == null) {
            return false;
        }
        ParseResult ran = parseResult;
        while (ran.hasSubcommand()) {
            ran = ran.subcommand();
        }
        return ran.hasMatchedOption("--json");
    }

    private static boolean offersJson(CommandLine command) {
        return command.getCommandSpec().findOption("--json") != null;
    }

    /** Prints {@code {"error": message, "exitCode": N}} on stdout, one line. */
    private static void printJsonError(CommandLine command, String message, int exitCode) {
        Map<String, Object> error = new LinkedHashMap<>();
        error.put("error", oneLine(message));
        error.put("exitCode", exitCode);
        command.getOut().println(Json.write(error));
        command.getOut().flush();
    }

    static int exitCodeFor(Exception ex) {
        if (ex instanceof UsageException || ex instanceof InvalidArgumentException) {
            return ExitCodes.USAGE;
        }
        if (ex instanceof StoreOpenException || ex instanceof ServerStartException || ex instanceof MetaStoreException) {
            return ExitCodes.STORE_ERROR;
        }
        return ExitCodes.INTERNAL_ERROR;
    }

    /** Prints {@code lake-meta <command>: message} on one line of stderr. */
    static void printError(CommandLine command, String message) {
        command.getErr().println(command.getCommandSpec().qualifiedName() + ": " + oneLine(message));
        command.getErr().flush();
    }

    private static String oneLine(String message) {
        return String.valueOf(message).replaceAll("\\s*\\R\\s*", " ").strip();
    }
}
