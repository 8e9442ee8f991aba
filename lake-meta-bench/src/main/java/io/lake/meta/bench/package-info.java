/**
 * The benchmark harness behind {@code lake-meta bench}: JMH benchmarks of the backends next to raw
 * RocksDB, the request-cost models of DynamoDB and PostgreSQL, and the report they make.
 */
@NullMarked
package io.lake.meta.bench;

import org.jspecify.annotations.NullMarked;
