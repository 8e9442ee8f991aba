package io.lake.meta.dynamo;

import io.lake.meta.Condition;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaValue;
import io.lake.meta.Mutation;
import io.lake.meta.TransactionFailure;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The condition expression one item is written (or checked) under on the v2 layout: "absent" for
 * a create or an absent-condition, "holds exactly these bytes" otherwise, and what a failure of
 * it says about the item. Shared by single-item writes and transactions, so both send and read
 * conditions alike.
 *
 * @param values null when the expression uses none (DynamoDB rejects an empty map)
 */
record WriteCondition(String expression, Map<String, String> names, Map<String, AttributeValue> values,
        boolean requiresAbsent) {

    private static final String V = "#v";
    private static final String K = "#k";
    private static final String EXPECTED = ":expected";

    static WriteCondition of(Mutation mutation) {
        if (mutation instanceof Mutation.Create) {
            return absent();
        }
        return holds(mutation instanceof Mutation.Update
                ? ((Mutation.Update) mutation).expected()
                : ((Mutation.Delete) mutation).expected());
    }

    static WriteCondition of(Condition condition) {
        return condition instanceof Condition.Holds ? holds(((Condition.Holds) condition).expected()) : absent();
    }

    private static WriteCondition absent() {
        return new WriteCondition("attribute_not_exists(" + K + ")", Map.of(K, V2Layout.RANGE), null, true);
    }

    private static WriteCondition holds(MetaValue expected) {
        return new WriteCondition(V + " = " + EXPECTED, Map.of(V, V2Layout.VALUE),
                Map.of(EXPECTED, V2Layout.b(expected)), false);
    }

    /**
     * What a failure of this condition on {@code key} says the item held, from the item DynamoDB
     * returned with it (ALL_OLD: the item when it exists, nothing when it is absent). A failed
     * "must be absent" proves the item exists, so without an item its value is unknown.
     */
    TransactionFailure failure(MetaKey key, Map<String, AttributeValue> item, String table) {
        if (item != null && !item.isEmpty()) {
            return TransactionFailure.found(key, Optional.of(V2Layout.valueOf(item, table)));
        }
        return requiresAbsent ? TransactionFailure.currentUnknown(key) : TransactionFailure.found(key, Optional.empty());
    }
}
