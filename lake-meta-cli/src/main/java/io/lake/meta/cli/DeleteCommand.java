package io.lake.meta.cli;

import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.Mutation;
import io.lake.meta.WriteResult;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code delete KEY --expect OLD}: a conditional delete. */
@Command(name = "delete", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {
            "Delete a key that holds exactly OLD; exits 3 on a conflict.",
            "A conflict deletes nothing and reports the current value."
        })
final class DeleteCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    StoreOptions storeOptions;

    @Mixin
    FormatOptions format;

    @Parameters(index = "0", paramLabel = "KEY", description = "The key, family/rest: for example tbl/sales/orders.")
    String key;

    @Option(names = "--expect", paramLabel = "OLD", required = true,
            description = "The exact value the key must hold.")
    String expected;

    @Override
    public Integer call() {
        ValueEncoding encoding = format.encoding();
        Mutation mutation = Mutation.delete(MetaKey.of(Arguments.text(key, "KEY")), encoding.decode(expected, "--expect"));
        WriteResult result;
        try (MetaStore store = storeOptions.open(false)) {
            result = store.apply(mutation);
        }
        return WriteReport.print(spec.commandLine(), format, mutation, result);
    }
}
