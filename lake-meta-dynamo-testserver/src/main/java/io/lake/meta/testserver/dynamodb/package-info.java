/**
 * An in-process, Docker-free DynamoDB-compatible server for tests and harnesses.
 *
 * <p>Public surface: {@link io.lake.meta.testserver.dynamodb.DynamoDbTestServer} (lifecycle,
 * endpoint), {@link io.lake.meta.testserver.dynamodb.ServerHooks} (pause points),
 * {@code fault} (the fault plan) and {@code stats} (per-table statistics). The packages
 * {@code engine}, {@code expr}, {@code model} and {@code protocol} implement the emulation and
 * may change without notice.
 */
@NullMarked
package io.lake.meta.testserver.dynamodb;

import org.jspecify.annotations.NullMarked;
