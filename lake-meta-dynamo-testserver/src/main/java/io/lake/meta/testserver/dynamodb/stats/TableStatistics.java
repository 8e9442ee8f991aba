package io.lake.meta.testserver.dynamodb.stats;

import java.util.Map;

/**
 * A snapshot of what the server did for one table since start (or the last reset).
 *
 * @param requests requests received per operation name (such as {@code "Query"}), faulted ones
 *     included; a request naming several tables counts once for each
 * @param itemsEvaluated items read before any filter (Query and Scan {@code ScannedCount}, items
 *     looked up by point reads and written by writes)
 * @param itemsReturned items sent back to the client
 * @param readCapacityUnits read capacity consumed, computed whether or not it was requested
 * @param writeCapacityUnits write capacity consumed, computed whether or not it was requested
 * @since 0.1.0
 */
public record TableStatistics(
        Map<String, Long> requests,
        long itemsEvaluated,
        long itemsReturned,
        double readCapacityUnits,
        double writeCapacityUnits) {

    /** Requests received for one operation; 0 when none. */
    public long requests(String operation) {
        return requests.getOrDefault(operation, 0L);
    }
}
