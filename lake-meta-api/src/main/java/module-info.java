/**
 * lake-meta's contract ({@code MetaStore} and its value types) and the backend SPI. Every package is
 * public API. The recipes built on the contract (leases, fencing, locks, counters, the table
 * registry, maintenance, the operation journal, copy) are in {@code io.lake.meta.recipes}
 * (artifact {@code lake-meta-recipes}); Micrometer support in {@code io.lake.meta.metrics}.
 */
module io.lake.meta {
    requires org.slf4j;
    requires static transitive org.jspecify; // nullness annotations of the API: read by tools, not needed to run

    exports io.lake.meta;
    exports io.lake.meta.spi;
    exports io.lake.meta.watch;
}
