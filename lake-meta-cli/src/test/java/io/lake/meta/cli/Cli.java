package io.lake.meta.cli;

import java.io.PrintWriter;
import java.io.StringWriter;

/** Runs {@code lake-meta} in-process with captured stdout and stderr. */
public final class Cli {

    private Cli() {}

    public record Run(int exitCode, String out, String err) {
        @Override
        public String toString() {
            return "exit " + exitCode + "\n--- stdout\n" + out + "--- stderr\n" + err;
        }
    }

    public static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exitCode = LakeMetaCommand.commandLine(new PrintWriter(out, true), new PrintWriter(err, true))
                .execute(args);
        return new Run(exitCode, out.toString(), err.toString());
    }
}
