package io.lake.meta.cli;

import io.lake.meta.MetaStore;
import io.lake.meta.cli.store.StoreOptions;
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
public abstract class RecipeStoreCommand implements Callable<Integer> {

    @Spec
    protected CommandSpec spec;

    @Mixin
    StoreOptions storeOptions;

    @Option(names = "--json", description = "Print one JSON object (ASCII, non-ASCII escaped) instead of text.")
    protected boolean json;

    /**
     * Opens the existing store read-only (the recipe commands only read; on {@code rocks:} also a
     * store a service holds), answers {@code call} on it, and closes it before anything is printed.
     */
    protected <T> T withStore(Function<MetaStore, T> call) {
        try (MetaStore store = storeOptions.openReadOnly()) {
            return call.apply(store);
        }
    }

    protected PrintWriter out() {
        return spec.commandLine().getOut();
    }
}
