/**
 * Micrometer support for lake-meta: {@code MeteredMetaStore} (every operation of any store timed
 * and counted) and {@code LeaderElectionMetrics}. Optional: only a service that uses Micrometer
 * adds this artifact.
 */
// micrometer-core has no descriptor, only the stable Automatic-Module-Name "micrometer.core"
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic"})
module io.lake.meta.metrics {
    requires transitive io.lake.meta.recipes;
    requires transitive micrometer.core; // MeteredMetaStore and LeaderElectionMetrics take a MeterRegistry
    requires static transitive org.jspecify;

    exports io.lake.meta.metrics;
}
