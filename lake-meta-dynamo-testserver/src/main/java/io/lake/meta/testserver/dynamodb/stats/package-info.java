/** Per-table counters of what the server did: requests, items evaluated and returned, capacity. */
package io.lake.meta.testserver.dynamodb.stats;
