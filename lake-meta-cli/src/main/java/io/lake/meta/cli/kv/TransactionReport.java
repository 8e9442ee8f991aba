package io.lake.meta.cli.kv;

import io.lake.meta.Transaction;
import io.lake.meta.TransactionFailure;
import io.lake.meta.TransactionResult;
import io.lake.meta.cli.ErrorHandler;
import io.lake.meta.cli.ExitCodes;
import io.lake.meta.cli.Json;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;

/** Prints the answer to {@code lake-meta txn} and picks the exit code: applied 0, not applied 3. */
final class TransactionReport {

    private TransactionReport() {}

    static int print(CommandLine command, FormatOptions format, Transaction transaction, TransactionResult result) {
        ValueEncoding encoding = format.encoding();
        if (format.json) {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("applied", result.isApplied());
            json.put("keys", transaction.keyCount());
            List<Map<String, Object>> failures = new ArrayList<>();
            for (TransactionFailure failure : result.failures()) {
                Map<String, Object> f = new LinkedHashMap<>();
                f.put("key", failure.key().toString());
                f.put("currentKnown", failure.isCurrentKnown());
                if (failure.isCurrentKnown()) {
                    f.put(
                            "current",
                            failure.currentValue()
                                    .map(v -> encoding.encode(v, "current value of " + failure.key()))
                                    .orElse(null));
                }
                failures.add(f);
            }
            json.put("failures", failures);
            json.put("encoding", encoding.label());
            command.getOut().println(Json.write(json));
        } else if (result.isApplied()) {
            command.getOut()
                    .println("applied a transaction of " + count(transaction.keyCount(), "key") + " ("
                            + count(transaction.conditions().size(), "condition") + ", "
                            + count(transaction.mutations().size(), "mutation") + ")");
        } else {
            ErrorHandler.printError(
                    command,
                    "transaction not applied, nothing was written; "
                            + result.failures().size() + " of " + count(transaction.keyCount(), "key") + " failed:");
            for (TransactionFailure failure : result.failures()) {
                command.getErr().println("  " + describe(failure, encoding));
            }
            command.getErr().flush();
        }
        command.getOut().flush();
        return result.isApplied() ? ExitCodes.OK : ExitCodes.CONFLICT;
    }

    private static String describe(TransactionFailure failure, ValueEncoding encoding) {
        if (!failure.isCurrentKnown()) {
            return failure.key() + ": did not hold what the transaction expected (current value unknown)";
        }
        return failure.currentValue()
                .map(v -> failure.key() + ": holds " + encoding.display(v))
                .orElse(failure.key() + ": is absent");
    }

    /** "1 key", "2 keys". */
    static String count(int n, String noun) {
        return n + " " + noun + (n == 1 ? "" : "s");
    }
}
