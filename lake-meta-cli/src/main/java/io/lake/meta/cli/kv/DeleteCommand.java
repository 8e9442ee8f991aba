package io.lake.meta.cli.kv;

import io.lake.meta.MetaKey;
import io.lake.meta.Mutation;
import io.lake.meta.cli.ExitCodeHelp;
import io.lake.meta.cli.VersionProvider;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code delete KEY --expect OLD}: a conditional delete. */
@Command(
        name = "delete",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = {
            "Delete a key that holds exactly OLD; exits 3 on a conflict.",
            "A conflict deletes nothing and reports the current value."
        },
        exitCodeListHeading = ExitCodeHelp.HEADING,
        exitCodeList = {
            "0:deleted",
            ExitCodeHelp.BAD_INPUT,
            "3:conflict: the key is absent or holds other bytes; nothing was deleted",
            ExitCodeHelp.STORE_ERROR,
            ExitCodeHelp.INTERNAL_ERROR
        },
        footerHeading = "%nExamples:%n",
        footer = {
            "  lake-meta delete --store rocks:/tmp/meta tbl/sales/orders --expect \\",
            "      '{\"version\":2}'",
            "  lake-meta delete --store rocks:/tmp/meta tbl/sales/orders --expect 7b7d \\",
            "      --hex --json"
        })
public final class DeleteCommand extends StoreCommand {

    @Parameters(index = "0", paramLabel = "KEY", description = "The key, family/rest: for example tbl/sales/orders.")
    String key;

    @Option(names = "--expect", paramLabel = "OLD", required = true, description = "The exact value the key must hold.")
    String expected;

    @Override
    public Integer call() {
        ValueEncoding encoding = format.encoding();
        Mutation mutation = Mutation.delete(MetaKey.of(key), encoding.decode(expected, "--expect"));
        return write(false, mutation);
    }
}
