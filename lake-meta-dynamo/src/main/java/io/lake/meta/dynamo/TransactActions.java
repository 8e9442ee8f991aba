package io.lake.meta.dynamo;

import io.lake.meta.MetaKey;
import io.lake.meta.Mutation;
import io.lake.meta.StoreUnavailableException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.ConditionCheck;
import software.amazon.awssdk.services.dynamodb.model.Delete;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/**
 * The pieces every {@code TransactWriteItems} of the store is made of, whatever the layout or the
 * number of tables: conditional actions that return the item they failed on (ALL_OLD), and the
 * first reading of a cancellation (which reasons are known, which mean "retry").
 */
final class TransactActions {

    static final String CCF = "ConditionalCheckFailed";
    static final String NONE = "None";
    private static final Set<String> RETRYABLE_REASONS =
            Set.of("TransactionConflict", "ThrottlingError", "ProvisionedThroughputExceeded", "RequestLimitExceeded");

    private TransactActions() {}

    static TransactWriteItem check(String table, Map<String, AttributeValue> key, WriteCondition when) {
        return check(table, key, when.expression(), when.names(), when.values());
    }

    /** @param values null when the expression uses none */
    static TransactWriteItem check(
            String table,
            Map<String, AttributeValue> key,
            String expression,
            Map<String, String> names,
            @Nullable Map<String, AttributeValue> values) {
        return TransactWriteItem.builder()
                .conditionCheck(ConditionCheck.builder()
                        .tableName(table)
                        .key(key)
                        .conditionExpression(expression)
                        .expressionAttributeNames(names)
                        .expressionAttributeValues(values)
                        .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
                        .build())
                .build();
    }

    static TransactWriteItem check(String table, ItemLayout layout, MetaKey key, WriteCondition when) {
        return check(table, layout.keyOf(key), when);
    }

    static TransactWriteItem write(String table, ItemLayout layout, Mutation mutation, WriteCondition when) {
        if (mutation instanceof Mutation.Delete) {
            return TransactWriteItem.builder()
                    .delete(Delete.builder()
                            .tableName(table)
                            .key(layout.keyOf(mutation.key()))
                            .conditionExpression(when.expression())
                            .expressionAttributeNames(when.names())
                            .expressionAttributeValues(when.values())
                            .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
                            .build())
                    .build();
        }
        return TransactWriteItem.builder()
                .put(Put.builder()
                        .tableName(table)
                        .item(layout.itemOf(mutation.key(), mutation.newValue().orElseThrow()))
                        .conditionExpression(when.expression())
                        .expressionAttributeNames(when.names())
                        .expressionAttributeValues(when.values())
                        .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
                        .build())
                .build();
    }

    /** {@code mutation} written without a condition: a derived copy, rewritten from its authority. */
    static TransactWriteItem overwrite(String table, ItemLayout layout, Mutation mutation) {
        if (mutation instanceof Mutation.Delete) {
            return TransactWriteItem.builder()
                    .delete(Delete.builder()
                            .tableName(table)
                            .key(layout.keyOf(mutation.key()))
                            .build())
                    .build();
        }
        return TransactWriteItem.builder()
                .put(Put.builder()
                        .tableName(table)
                        .item(layout.itemOf(mutation.key(), mutation.newValue().orElseThrow()))
                        .build())
                .build();
    }

    /**
     * The cancellation's reasons, one per action, once they are known to be failed conditions
     * (and held actions) only.
     *
     * @throws DynamoStoreException if the reasons do not match the actions or name a reason lake-meta does not map
     * @throws StoreUnavailableException if a reason means nothing applied and a retry may succeed
     */
    static List<CancellationReason> conditionFailures(String what, int actions, TransactionCanceledException e) {
        List<CancellationReason> reasons = e.hasCancellationReasons() ? e.cancellationReasons() : List.of();
        List<String> codes = reasons.stream().map(r -> String.valueOf(r.code())).toList();
        if (reasons.size() != actions) {
            throw new DynamoStoreException(
                    what + " was cancelled with " + reasons.size() + " cancellation reasons for " + actions
                            + " actions (" + Failures.describe(e) + "); nothing was applied",
                    e);
        }
        for (String code : codes) {
            if (!code.equals(NONE) && !code.equals(CCF) && !RETRYABLE_REASONS.contains(code)) {
                throw new DynamoStoreException(
                        what + " was cancelled for a reason lake-meta does not map: " + codes + " ("
                                + Failures.describe(e) + "); nothing was applied",
                        e);
            }
        }
        if (codes.stream().anyMatch(RETRYABLE_REASONS::contains)) {
            throw new StoreUnavailableException(
                    what + " was cancelled: " + codes + "; nothing was applied; retry with backoff", e);
        }
        return reasons;
    }

    static boolean failed(CancellationReason reason) {
        return CCF.equals(reason.code());
    }

    /** The item a failed action returned (ALL_OLD), or null when it sent none. */
    static @Nullable Map<String, AttributeValue> itemOf(CancellationReason reason) {
        return reason.hasItem() && !reason.item().isEmpty() ? reason.item() : null;
    }
}
