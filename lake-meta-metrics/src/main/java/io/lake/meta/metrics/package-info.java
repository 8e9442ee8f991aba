/**
 * Optional Micrometer metrics for lake-meta: {@link io.lake.meta.metrics.MeteredMetaStore}, a
 * {@link io.lake.meta.MetaStore} decorator timing every call and counting conflicts, guard
 * rejections, fenced refusals, errors and page work, and
 * {@link io.lake.meta.metrics.LeaderElectionMetrics}, a binder for an election's leadership state
 * and epoch. Micrometer ({@code io.micrometer:micrometer-core}) is an optional dependency of
 * {@code lake-meta-api}: add it to use this package; without it nothing here is loaded and
 * nothing costs anything. Every meter is listed in {@code docs/guides/metrics.md}.
 */
@NullMarked
package io.lake.meta.metrics;

import org.jspecify.annotations.NullMarked;
