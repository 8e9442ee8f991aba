package io.lake.meta.cli;

import io.lake.meta.MetaKey;
import io.lake.meta.MetaValue;
import io.lake.meta.Mutation;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code put KEY VALUE [--expect OLD | --create]}: a conditional create or update. */
@Command(name = "put", mixinStandardHelpOptions = true, versionProvider = VersionProvider.class,
        description = {
            "Create a key, or update it with --expect; exits 3 on a conflict.",
            "Without --expect the key must be absent. With --expect OLD it must hold exactly OLD.",
            "A conflict writes nothing and reports the current value."
        })
final class PutCommand extends StoreCommand {

    @Parameters(index = "0", paramLabel = "KEY", description = "The key, family/rest: for example tbl/sales/orders.")
    String key;

    @Parameters(index = "1", paramLabel = "VALUE", description = "The new value.")
    String value;

    @ArgGroup(exclusive = true, multiplicity = "0..1")
    Condition condition;

    @Option(names = "--create-store", description = {
        "Create the store if it does not exist yet: for rocks:DIR its directory; for dynamo:TABLE an"
                + " on-demand table with the lake-meta key schema and 16 shards (needs dynamodb:CreateTable)."
    })
    boolean createStore;

    /** What the key must hold for the write to apply. */
    static final class Condition {
        @Option(names = "--expect", paramLabel = "OLD", required = true,
                description = "Update: apply only if the key holds exactly OLD.")
        String expected;

        @Option(names = "--create", required = true,
                description = "Create: apply only if the key is absent (the default).")
        boolean create;
    }

    @Override
    public Integer call() {
        ValueEncoding encoding = format.encoding();
        MetaKey metaKey = MetaKey.of(key);
        MetaValue newValue = encoding.decode(value, "VALUE");
        Mutation mutation = condition == null || condition.expected == null
                ? Mutation.create(metaKey, newValue)
                : Mutation.update(metaKey, encoding.decode(condition.expected, "--expect"), newValue);
        return write(createStore, mutation);
    }
}
