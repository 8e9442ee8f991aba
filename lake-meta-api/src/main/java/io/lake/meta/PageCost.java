package io.lake.meta;

/**
 * What reading one page cost the backend.
 *
 * @param itemsEvaluated items the backend read to build the page, look-ahead included
 * @param capacityUnits read capacity consumed, for backends that meter it (DynamoDB); 0 otherwise
 */
public record PageCost(long itemsEvaluated, double capacityUnits) {

    /** @throws InvalidArgumentException if a count is negative, or the capacity is not a finite number */
    public PageCost {
        Checks.notNegative(itemsEvaluated, "items evaluated");
        Checks.finiteNotNegative(capacityUnits, "capacity units");
    }

    /** A cost of {@code itemsEvaluated} items and no metered capacity. */
    public static PageCost items(long itemsEvaluated) {
        return new PageCost(itemsEvaluated, 0);
    }
}
