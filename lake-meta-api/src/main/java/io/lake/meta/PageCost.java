package io.lake.meta;

/**
 * What reading one page cost the backend.
 *
 * @param itemsEvaluated items the backend read to build the page, look-ahead included
 * @param capacityUnits read capacity consumed, for backends that meter it (DynamoDB); 0 otherwise
 */
public record PageCost(long itemsEvaluated, double capacityUnits) {

    public PageCost {
        if (itemsEvaluated < 0 || capacityUnits < 0) {
            throw new IllegalArgumentException("page cost cannot be negative");
        }
    }

    /** A cost of {@code itemsEvaluated} items and no metered capacity. */
    public static PageCost items(long itemsEvaluated) {
        return new PageCost(itemsEvaluated, 0);
    }
}
