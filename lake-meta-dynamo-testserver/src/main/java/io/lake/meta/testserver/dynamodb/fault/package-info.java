/** Faults tests can arm on a running server: throttling, 5xx, lost responses, conflicts, latency. */
package io.lake.meta.testserver.dynamodb.fault;
