package io.lake.meta.cli;

import io.lake.meta.MetaStore;
import picocli.CommandLine.Option;

/** The options that choose and open the store of an inspection command. */
final class StoreOptions {

    @Option(names = "--store", required = true, paramLabel = "SCHEME:LOCATION",
            converter = StoreSpec.Converter.class,
            description = "The store to open: rocks:DIR (an embedded RocksDB store in DIR).")
    StoreSpec store;

    /** Opens the chosen store; the caller closes it. */
    MetaStore open(boolean createIfMissing) {
        return store.open(createIfMissing);
    }
}
