package io.lake.meta.cli;

import io.lake.meta.MetaKey;
import io.lake.meta.Mutation;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code delete KEY --expect OLD}: a conditional delete. */
@Command(name = "delete", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {
            "Delete a key that holds exactly OLD; exits 3 on a conflict.",
            "A conflict deletes nothing and reports the current value."
        },
        footerHeading = "%nExamples:%n",
        footer = {
            "  lake-meta delete --store rocks:/tmp/meta tbl/sales/orders \\",
            "      --expect '{\"version\":1}'",
            "",
            "Exit codes: 0 deleted; 2 bad input (key, value, store);",
            "3 conflict, nothing deleted; 4 store error."
        })
final class DeleteCommand extends StoreCommand {

    @Parameters(index = "0", paramLabel = "KEY", description = "The key, family/rest: for example tbl/sales/orders.")
    String key;

    @Option(names = "--expect", paramLabel = "OLD", required = true,
            description = "The exact value the key must hold.")
    String expected;

    @Override
    public Integer call() {
        ValueEncoding encoding = format.encoding();
        Mutation mutation = Mutation.delete(MetaKey.of(key), encoding.decode(expected, "--expect"));
        return write(false, mutation);
    }
}
