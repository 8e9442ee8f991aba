package io.lake.meta.cli;

import io.lake.meta.MetaStore;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import java.util.function.Function;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * What the recipe commands ({@code tables}, {@code maintenance}, {@code ops}) share: the store they
 * open, never creating it, and {@code --json}. They print typed records, so they take no
 * {@code --hex} or {@code --base64}.
 */
abstract class RecipeStoreCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    StoreOptions storeOptions;

    @Option(names = "--json", description = "Print one JSON object (ASCII, non-ASCII escaped) instead of text.")
    boolean json;

    /**
     * Opens the existing store read-only (the recipe commands only read; on {@code rocks:} also a
     * store a service holds), answers {@code call} on it, and closes it before anything is printed.
     */
    <T> T withStore(Function<MetaStore, T> call) {
        try (MetaStore store = storeOptions.openReadOnly()) {
            return call.apply(store);
        }
    }

    PrintWriter out() {
        return spec.commandLine().getOut();
    }
}
