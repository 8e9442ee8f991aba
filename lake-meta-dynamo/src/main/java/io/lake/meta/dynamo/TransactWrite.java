package io.lake.meta.dynamo;

import io.lake.meta.Condition;
import io.lake.meta.MetaKey;
import io.lake.meta.Mutation;
import io.lake.meta.StoreUnavailableException;
import io.lake.meta.Transaction;
import io.lake.meta.TransactionFailure;
import io.lake.meta.TransactionResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.ConditionCheck;
import software.amazon.awssdk.services.dynamodb.model.Delete;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/**
 * A {@link Transaction} as one {@code TransactWriteItems} request on the v2 layout: one
 * {@code ConditionCheck} per condition, then one conditional {@code Put} or {@code Delete} per
 * mutation, in the transaction's order, each returning the item it failed on (ALL_OLD), and a
 * {@code ClientRequestToken} per logical call so that the SDK's retries of a committed
 * transaction answer success instead of a false conflict.
 *
 * <p>Cancellation reasons are mapped action by action: {@code ConditionalCheckFailed} is that
 * key's failure; a retryable reason (a conflict with another transaction, throttling) means
 * nothing applied; any other reason, or a reason list of the wrong length, is an error, never a
 * conflict. When an earlier attempt of the same call may have applied (its answer was lost, or
 * it was a 5xx), the cancellation proves nothing about that attempt: the outcome is unknown.
 */
final class TransactWrite {

    private static final String CCF = "ConditionalCheckFailed";
    private static final String NONE = "None";
    private static final Set<String> RETRYABLE_REASONS =
            Set.of("TransactionConflict", "ThrottlingError", "ProvisionedThroughputExceeded", "RequestLimitExceeded");

    private final DynamoDbClient client;
    private final String table;
    private final V2Layout layout;

    TransactWrite(DynamoDbClient client, String table, V2Layout layout) {
        this.client = client;
        this.table = table;
        this.layout = layout;
    }

    TransactionResult run(Transaction transaction) {
        List<TransactWriteItem> actions = new ArrayList<>(transaction.keyCount());
        List<Step> steps = new ArrayList<>(transaction.keyCount());
        for (Condition condition : transaction.conditions()) {
            WriteCondition when = WriteCondition.of(condition);
            actions.add(check(condition, when));
            steps.add(new Step(condition.key(), when));
        }
        for (Mutation mutation : transaction.mutations()) {
            WriteCondition when = WriteCondition.of(mutation);
            actions.add(write(mutation, when));
            steps.add(new Step(mutation.key(), when));
        }
        String token = UUID.randomUUID().toString(); // the SDK resends the same token on its retries
        AttemptLog log = new AttemptLog();
        String what = describe(transaction);
        try {
            client.transactWriteItems(r -> r.transactItems(actions).clientRequestToken(token)
                    .overrideConfiguration(log.attach(client)));
            return TransactionResult.applied();
        } catch (TransactionCanceledException e) {
            Failures.requireConclusive(what, e, log, table);
            return cancelled(what, steps, e);
        } catch (SdkException e) {
            throw Failures.onWrite(what, e, log, table);
        }
    }

    private TransactWriteItem check(Condition condition, WriteCondition when) {
        return TransactWriteItem.builder().conditionCheck(ConditionCheck.builder().tableName(table)
                .key(layout.keyOf(condition.key()))
                .conditionExpression(when.expression()).expressionAttributeNames(when.names())
                .expressionAttributeValues(when.values())
                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD).build()).build();
    }

    private TransactWriteItem write(Mutation mutation, WriteCondition when) {
        if (mutation instanceof Mutation.Delete) {
            return TransactWriteItem.builder().delete(Delete.builder().tableName(table).key(layout.keyOf(mutation.key()))
                    .conditionExpression(when.expression()).expressionAttributeNames(when.names())
                    .expressionAttributeValues(when.values())
                    .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD).build()).build();
        }
        return TransactWriteItem.builder().put(Put.builder().tableName(table)
                .item(layout.itemOf(mutation.key(), mutation.newValue().orElseThrow()))
                .conditionExpression(when.expression()).expressionAttributeNames(when.names())
                .expressionAttributeValues(when.values())
                .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD).build()).build();
    }

    private TransactionResult cancelled(String what, List<Step> steps, TransactionCanceledException e) {
        List<CancellationReason> reasons = e.hasCancellationReasons() ? e.cancellationReasons() : List.of();
        List<String> codes = reasons.stream().map(r -> String.valueOf(r.code())).toList();
        if (reasons.size() != steps.size()) {
            throw new DynamoStoreException(what + " was cancelled with " + reasons.size() + " cancellation reasons for "
                    + steps.size() + " actions (" + Failures.describe(e) + "); nothing was applied", e);
        }
        for (String code : codes) {
            if (!code.equals(NONE) && !code.equals(CCF) && !RETRYABLE_REASONS.contains(code)) {
                throw new DynamoStoreException(what + " was cancelled for a reason lake-meta does not map: " + codes
                        + " (" + Failures.describe(e) + "); nothing was applied", e);
            }
        }
        if (codes.stream().anyMatch(RETRYABLE_REASONS::contains)) {
            throw new StoreUnavailableException(what + " was cancelled: " + codes
                    + "; nothing was applied; retry with backoff", e);
        }
        List<TransactionFailure> failures = new ArrayList<>();
        for (int i = 0; i < steps.size(); i++) {
            if (codes.get(i).equals(CCF)) {
                CancellationReason reason = reasons.get(i);
                failures.add(steps.get(i).failure(reason.hasItem() ? reason.item() : null, table));
            }
        }
        if (failures.isEmpty()) {
            throw new DynamoStoreException(what + " was cancelled without a failing action: " + codes
                    + " (" + Failures.describe(e) + "); nothing was applied", e);
        }
        return TransactionResult.notApplied(failures);
    }

    private static String describe(Transaction transaction) {
        return "transaction on " + transaction.keyCount() + " keys (first write to '"
                + transaction.mutations().get(0).key() + "')";
    }

    /** One action's key and the condition it was sent with, to read a failure of it. */
    private record Step(MetaKey key, WriteCondition condition) {

        TransactionFailure failure(Map<String, AttributeValue> item, String table) {
            return condition.failure(key, item, table);
        }
    }
}
