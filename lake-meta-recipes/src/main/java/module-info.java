/**
 * The recipes built on lake-meta's contract: leader election with monotonic lease epochs, the
 * fenced store, locks, counters, the table registry, maintenance sweeps, the operation journal and
 * the verified copy between stores, and the page types they share ({@code io.lake.meta.recipes}).
 * Every exported package is public API;
 * {@code io.lake.meta.internal} (the plumbing the recipes share) is not exported and not API.
 */
module io.lake.meta.recipes {
    requires transitive io.lake.meta;
    requires com.fasterxml.jackson.databind; // the records the recipes store; not in any signature
    requires org.slf4j;
    requires static transitive org.jspecify;

    exports io.lake.meta.copy;
    exports io.lake.meta.counter;
    exports io.lake.meta.fenced;
    exports io.lake.meta.lease;
    exports io.lake.meta.lock;
    exports io.lake.meta.maintenance;
    exports io.lake.meta.ops;
    exports io.lake.meta.recipes;
    exports io.lake.meta.registry;

    // CounterRecord is read and written by Jackson's data binding through its package-private constructor
    opens io.lake.meta.counter to
            com.fasterxml.jackson.databind;
}
