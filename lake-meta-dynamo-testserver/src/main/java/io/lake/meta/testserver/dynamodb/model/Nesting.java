package io.lake.meta.testserver.dynamodb.model;

import java.util.Map;

/**
 * DynamoDB's limit on how deep maps and lists nest, and the texts it refuses a deeper document
 * with. Levels count the attribute itself as level 1: an attribute of 31 wrapping maps has its leaf
 * at level 32, the deepest accepted.
 *
 * @since 0.1.0
 */
public final class Nesting {

    /** The deepest level a leaf of a stored item may sit at. */
    public static final int MAX_LEVELS = 32;

    /**
     * A request value nested too deeply: the bare sentence of BatchWriteItem and TransactWriteItems
     * items, and inside {@code ExpressionAttributeValues contains invalid value: … for key :v}.
     */
    public static final String TOO_DEEP = "Nesting Levels have exceeded supported limits: Attributes in the item "
            + "have nested levels beyond supported limit";

    /** PutItem and UpdateItem send the same sentence inside the validation envelope. */
    public static final String TOO_DEEP_IN_SINGLE_WRITE = "1 validation error detected: " + TOO_DEEP;

    /** The ValidationError reason of a transaction whose update would store a too deep item. */
    public static final String TOO_DEEP_REASON = "Nesting Levels have exceeded supported limits";

    private Nesting() {}

    /** Whether some attribute of the item has a leaf below {@link #MAX_LEVELS}. */
    public static boolean tooDeep(Map<String, AttrValue> item) {
        return item.values().stream().anyMatch(v -> levels(v) > MAX_LEVELS);
    }

    /** The levels a value spans: 1 for a scalar, a set or an empty document. */
    static int levels(AttrValue v) {
        switch (v.type()) {
            case M:
                return 1
                        + v.m().values().stream()
                                .mapToInt(Nesting::levels)
                                .max()
                                .orElse(0);
            case L:
                return 1 + v.elements().stream().mapToInt(Nesting::levels).max().orElse(0);
            default:
                return 1;
        }
    }
}
