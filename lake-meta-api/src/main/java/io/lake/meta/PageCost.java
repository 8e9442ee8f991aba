package io.lake.meta;

/**
 * What reading one page cost the backend.
 *
 * @param itemsEvaluated items the backend read to build the page, look-ahead included, summed
 *     over every request the page made
 * @param capacityUnits read capacity consumed, for backends that meter it (DynamoDB), summed over
 *     every request the page made; 0 otherwise
 * @param requests requests the page sent to the backend (DynamoDB: one Query per shard it read;
 *     RocksDB: one iterator); 0 for a page answered without asking
 * @since 0.1.0
 */
public record PageCost(long itemsEvaluated, double capacityUnits, int requests) {

    /** @throws InvalidArgumentException if a count is negative, or the capacity is not a finite number */
    public PageCost {
        Checks.notNegative(itemsEvaluated, "items evaluated");
        Checks.finiteNotNegative(capacityUnits, "capacity units");
        Checks.notNegative(requests, "requests");
    }

    /**
     * The cost of a page built by one request.
     *
     * @throws InvalidArgumentException if the count is negative, or the capacity is not a finite number
     */
    public PageCost(long itemsEvaluated, double capacityUnits) {
        this(itemsEvaluated, capacityUnits, 1);
    }

    /** A cost of {@code itemsEvaluated} items, one request and no metered capacity. */
    public static PageCost items(long itemsEvaluated) {
        return new PageCost(itemsEvaluated, 0);
    }
}
