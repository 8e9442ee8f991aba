/** Faults tests can arm on a running server: throttling, 5xx, lost responses, conflicts, latency. */
@NullMarked
package io.lake.meta.testserver.dynamodb.fault;

import org.jspecify.annotations.NullMarked;
