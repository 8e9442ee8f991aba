/**
 * lake-meta's contract ({@code MetaStore} and its value types), the backend SPI and the recipes
 * built on the contract. Every exported package is public API. {@code io.lake.meta.internal}
 * (plumbing the recipe packages share: listener delivery, lease settings) is not exported and not
 * API; on the class path its classes are reachable but may change in any release.
 */
// micrometer-core has no descriptor, only the stable Automatic-Module-Name "micrometer.core"
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic"})
module io.lake.meta {
    requires com.fasterxml.jackson.databind;    // lease, registry, journal and counter records; not in any signature
    requires org.slf4j;
    requires static transitive org.jspecify;    // nullness annotations of the API: read by tools, not needed to run
    requires static transitive micrometer.core; // io.lake.meta.metrics takes a MeterRegistry: its callers bring Micrometer

    exports io.lake.meta;
    exports io.lake.meta.copy;
    exports io.lake.meta.counter;
    exports io.lake.meta.fenced;
    exports io.lake.meta.lease;
    exports io.lake.meta.lock;
    exports io.lake.meta.maintenance;
    exports io.lake.meta.metrics;
    exports io.lake.meta.ops;
    exports io.lake.meta.registry;
    exports io.lake.meta.spi;
    exports io.lake.meta.watch;

    // CounterRecord is read and written by Jackson's data binding through its package-private constructor
    opens io.lake.meta.counter to com.fasterxml.jackson.databind;
}
