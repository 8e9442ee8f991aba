package io.lake.meta.cli.kv;

import io.lake.meta.MetaKey;
import io.lake.meta.Mutation;
import io.lake.meta.WriteResult;
import io.lake.meta.cli.ErrorHandler;
import io.lake.meta.cli.ExitCodes;
import io.lake.meta.cli.Json;
import java.util.LinkedHashMap;
import java.util.Map;
import picocli.CommandLine;

/** Prints the answer to a conditional write and picks the exit code: applied 0, conflict 3. */
final class WriteReport {

    private WriteReport() {}

    static int print(CommandLine command, FormatOptions format, Mutation mutation, WriteResult result) {
        ValueEncoding encoding = format.encoding();
        String operation = operation(mutation);
        if (format.json) {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("key", mutation.key().toString());
            json.put("operation", operation);
            json.put("applied", result.isApplied());
            if (result.isConflict()) {
                json.put("currentKnown", result.isCurrentKnown());
                if (result.isCurrentKnown()) {
                    json.put(
                            "current",
                            result.currentValue()
                                    .map(v -> encoding.encode(v, "current value of " + mutation.key()))
                                    .orElse(null));
                    json.put("encoding", encoding.label());
                }
            }
            command.getOut().println(Json.write(json));
        } else if (result.isApplied()) {
            command.getOut().println(pastTense(operation) + " " + mutation.key());
        } else {
            ErrorHandler.printError(command, operation + " conflict: " + describeConflict(mutation, result, encoding));
        }
        command.getOut().flush();
        return result.isApplied() ? ExitCodes.OK : ExitCodes.CONFLICT;
    }

    static String describeConflict(Mutation mutation, WriteResult conflict, ValueEncoding encoding) {
        MetaKey key = mutation.key();
        if (!conflict.isCurrentKnown()) {
            return key + " did not hold what the write expected (current value unknown); nothing was written";
        }
        if (mutation instanceof Mutation.Create && conflict.currentValue().isPresent()) {
            String current = encoding.display(conflict.currentValue().get());
            return key + " already exists and holds " + current + "; nothing was written (to replace it, pass --expect "
                    + shellQuoted(current) + ")";
        }
        return conflict.currentValue()
                .map(v -> key + " holds " + encoding.display(v) + "; nothing was written")
                .orElse(key + " is absent; nothing was written");
    }

    /** The value as the shell argument that passes it back: quoted unless it is a plain word. */
    static String shellQuoted(String value) {
        return value.matches("[A-Za-z0-9_./:=+@%,-]+") ? value : "'" + value.replace("'", "'\\''") + "'";
    }

    private static String operation(Mutation mutation) {
        if (mutation instanceof Mutation.Create) {
            return "create";
        }
        return mutation instanceof Mutation.Update ? "update" : "delete";
    }

    private static String pastTense(String operation) {
        return operation + "d";
    }
}
