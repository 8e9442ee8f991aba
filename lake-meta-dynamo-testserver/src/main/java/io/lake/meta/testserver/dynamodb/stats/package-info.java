/** Per-table counters of what the server did: requests, items evaluated and returned, capacity. */
@NullMarked
package io.lake.meta.testserver.dynamodb.stats;

import org.jspecify.annotations.NullMarked;
