package io.lake.meta.dynamo;

import io.lake.meta.Condition;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaValue;
import io.lake.meta.Mutation;
import io.lake.meta.TransactionFailure;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The condition expression one item is written (or checked) under: "absent" for a create or an
 * absent-condition, "holds exactly these bytes" otherwise, and what a failure of it says about the
 * item. Shared by single-item writes and transactions, on either layout, so all of them send and
 * read conditions alike.
 *
 * @param values null when the expression uses none (DynamoDB rejects an empty map)
 */
record WriteCondition(
        String expression,
        Map<String, String> names,
        @Nullable Map<String, AttributeValue> values,
        boolean requiresAbsent,
        ItemLayout layout) {

    private static final String V = "#v";
    private static final String K = "#k";
    private static final String EXPECTED = ":expected";

    static WriteCondition of(Mutation mutation, ItemLayout layout) {
        if (mutation instanceof Mutation.Create) {
            return absent(layout);
        }
        return holds(expectedOf(mutation), layout);
    }

    static WriteCondition of(Condition condition, ItemLayout layout) {
        return condition instanceof Condition.Holds
                ? holds(((Condition.Holds) condition).expected(), layout)
                : absent(layout);
    }

    static WriteCondition absent(ItemLayout layout) {
        return new WriteCondition(
                "attribute_not_exists(" + K + ")", Map.of(K, layout.keyAttribute()), null, true, layout);
    }

    /** The item exists, whatever it holds (a check on an internal record). */
    static WriteCondition present(ItemLayout layout) {
        return new WriteCondition("attribute_exists(" + K + ")", Map.of(K, layout.keyAttribute()), null, false, layout);
    }

    static WriteCondition holds(MetaValue expected, ItemLayout layout) {
        return new WriteCondition(
                V + " = " + EXPECTED,
                Map.of(V, ItemLayout.VALUE),
                Map.of(EXPECTED, V2Layout.b(expected)),
                false,
                layout);
    }

    private static MetaValue expectedOf(Mutation mutation) {
        return mutation instanceof Mutation.Update
                ? ((Mutation.Update) mutation).expected()
                : ((Mutation.Delete) mutation).expected();
    }

    /**
     * What a failure of this condition on {@code key} says the item held, from the item DynamoDB
     * returned with it (ALL_OLD: the item when it exists, nothing when it is absent). A failed
     * "must be absent" proves the item exists, so without an item its value is unknown.
     */
    TransactionFailure failure(MetaKey key, @Nullable Map<String, AttributeValue> item, String table) {
        if (item != null && !item.isEmpty()) {
            return TransactionFailure.found(key, Optional.of(layout.valueIn(item, table)));
        }
        return requiresAbsent
                ? TransactionFailure.currentUnknown(key)
                : TransactionFailure.found(key, Optional.empty());
    }
}
