package io.lake.meta.cli.kv;

import io.lake.meta.MetaStore;
import io.lake.meta.Mutation;
import io.lake.meta.WriteResult;
import io.lake.meta.cli.store.StoreOptions;
import io.lake.meta.cli.store.StoreSpec;
import java.util.concurrent.Callable;
import java.util.function.Function;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** What every inspection command shares: the store it opens and how it reads and prints values. */
abstract class StoreCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    StoreOptions storeOptions;

    @Mixin
    FormatOptions format;

    /** Opens the store, answers {@code call} on it, and closes it before anything is printed. */
    <T> T withStore(boolean createIfMissing, Function<MetaStore, T> call) {
        try (MetaStore store = storeOptions.open(createIfMissing)) {
            return call.apply(store);
        }
    }

    /** As {@link #withStore}, for a command that only reads: the store opens read-only (see {@link StoreSpec#openReadOnly()}). */
    <T> T withReadOnlyStore(Function<MetaStore, T> call) {
        try (MetaStore store = storeOptions.openReadOnly()) {
            return call.apply(store);
        }
    }

    /** Applies {@code mutation}, prints the answer and returns the exit code: applied 0, conflict 3. */
    int write(boolean createIfMissing, Mutation mutation) {
        WriteResult result = withStore(createIfMissing, store -> store.apply(mutation));
        return WriteReport.print(spec.commandLine(), format, mutation, result);
    }
}
