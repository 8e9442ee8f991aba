/**
 * Optional Micrometer meters for the DynamoDB backend's online migration
 * ({@link io.lake.meta.dynamo.metrics.MigrationMetrics}); store meters are
 * {@code io.lake.meta.metrics.MeteredMetaStore}'s. Needs {@code micrometer-core} on the class path.
 */
@NullMarked
package io.lake.meta.dynamo.metrics;

import org.jspecify.annotations.NullMarked;
