package io.lake.meta.cli.kv;

import io.lake.meta.Transaction;
import io.lake.meta.TransactionResult;
import io.lake.meta.cli.ExitCodeHelp;
import io.lake.meta.cli.VersionProvider;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code txn --file FILE}: a multi-key transaction read from a JSON file. */
@Command(
        name = "txn",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = {
            "Apply a transaction from a JSON file: all of its steps, or none.",
            "Every condition and mutation in FILE holds and all of them apply, or "
                    + "nothing does; exits 3 and lists every failed key when it does not apply.",
            "FILE (or - for standard input) holds a JSON list of steps:",
            "  {\"require\": KEY, \"holds\": VALUE}   KEY holds exactly VALUE",
            "  {\"require\": KEY, \"absent\": true}   KEY is absent",
            "  {\"create\": KEY, \"value\": VALUE}    create KEY (it must be absent)",
            "  {\"update\": KEY, \"expect\": OLD, \"value\": VALUE}",
            "  {\"delete\": KEY, \"expect\": OLD}",
            "A key appears once; at most 100 keys and 2 MiB of keys and values. Values follow --hex / "
                    + "--base64 like every other command."
        },
        exitCodeListHeading = ExitCodeHelp.HEADING,
        exitCodeList = {
            "0:the transaction applied, all of it",
            ExitCodeHelp.BAD_INPUT,
            "3:it did not apply (every failed key is listed with what it held): nothing was written",
            ExitCodeHelp.STORE_ERROR,
            ExitCodeHelp.INTERNAL_ERROR
        },
        footerHeading = "%nExamples:%n",
        footer = {
            "  lake-meta txn --store rocks:/tmp/meta --file move-orders.json",
            "  lake-meta txn --store rocks:/tmp/meta --file - --json < move-orders.json",
            "  # move-orders.json: [{\"require\": \"tbl/sales/freeze\", \"absent\": true},",
            "  #   {\"delete\": \"tbl/sales/orders\", \"expect\": \"v1\"},",
            "  #   {\"create\": \"tbl/archive/orders\", \"value\": \"v1\"}]"
        })
public final class TxnCommand extends StoreCommand {

    @Option(
            names = "--file",
            required = true,
            paramLabel = "FILE",
            description = "The transaction, as JSON; - reads standard input.")
    String file;

    @Override
    public Integer call() {
        Transaction transaction = TransactionFile.read(file, System.in, format.encoding());
        TransactionResult result = withStore(false, store -> store.transact(transaction));
        return TransactionReport.print(spec.commandLine(), format, transaction, result);
    }
}
