package io.lake.meta.cli;

import io.lake.meta.InvalidArgumentException;
import io.lake.meta.MetaStoreException;
import java.io.PrintWriter;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * Turns every failure into an exit code and a one-line message on stderr. User errors never
 * print a stack trace; only an unexpected exception (a bug) does.
 */
final class ErrorHandler implements IExecutionExceptionHandler, IParameterExceptionHandler {

    @Override
    public int handleParseException(ParameterException ex, String[] args) {
        CommandLine command = ex.getCommandLine();
        PrintWriter err = command.getErr();
        printError(command, ex.getMessage());
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
        return exitCode;
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
        String oneLine = String.valueOf(message).replaceAll("\\s*\\R\\s*", " ").strip();
        command.getErr().println(command.getCommandSpec().qualifiedName() + ": " + oneLine);
        command.getErr().flush();
    }
}
