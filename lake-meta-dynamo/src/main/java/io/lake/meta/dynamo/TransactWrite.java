package io.lake.meta.dynamo;

import io.lake.meta.Condition;
import io.lake.meta.MetaKey;
import io.lake.meta.Mutation;
import io.lake.meta.Ticker;
import io.lake.meta.Transaction;
import io.lake.meta.TransactionFailure;
import io.lake.meta.TransactionResult;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/**
 * A {@link Transaction} as one {@code TransactWriteItems} request on one table, of either layout:
 * one {@code ConditionCheck} per condition, then one conditional {@code Put} or {@code Delete} per
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

    private final DynamoDbClient client;
    private final String table;
    private final ItemLayout layout;
    private final Ticker ticker;

    TransactWrite(DynamoDbClient client, String table, ItemLayout layout, Ticker ticker) {
        this.ticker = ticker;
        this.client = client;
        this.table = table;
        this.layout = layout;
    }

    TransactionResult run(Transaction transaction) {
        List<TransactWriteItem> actions = new ArrayList<>(transaction.keyCount());
        List<Step> steps = new ArrayList<>(transaction.keyCount());
        for (Condition condition : transaction.conditions()) {
            WriteCondition when = WriteCondition.of(condition, layout);
            actions.add(TransactActions.check(table, layout, condition.key(), when));
            steps.add(new Step(condition.key(), when));
        }
        for (Mutation mutation : transaction.mutations()) {
            WriteCondition when = WriteCondition.of(mutation, layout);
            actions.add(TransactActions.write(table, layout, mutation, when));
            steps.add(new Step(mutation.key(), when));
        }
        String token = UUID.randomUUID().toString(); // the SDK resends the same token on its retries
        AttemptLog log = new AttemptLog();
        String what = describe(transaction);
        try {
            client.transactWriteItems(r -> r.transactItems(actions)
                    .clientRequestToken(token)
                    .overrideConfiguration(log.attachToTransaction(client, ticker)));
            return TransactionResult.applied();
        } catch (TransactionCanceledException e) {
            Failures.requireConclusive(what, e, log, table);
            return cancelled(what, steps, e);
        } catch (SdkException e) {
            throw Failures.onWrite(what, e, log, table);
        }
    }

    private TransactionResult cancelled(String what, List<Step> steps, TransactionCanceledException e) {
        List<CancellationReason> reasons = TransactActions.conditionFailures(what, steps.size(), e);
        List<TransactionFailure> failures = new ArrayList<>();
        for (int i = 0; i < steps.size(); i++) {
            if (TransactActions.failed(reasons.get(i))) {
                Step step = steps.get(i);
                failures.add(step.condition().failure(step.key(), TransactActions.itemOf(reasons.get(i)), table));
            }
        }
        if (failures.isEmpty()) {
            throw new DynamoStoreException(
                    what + " was cancelled without a failing action: "
                            + reasons.stream().map(CancellationReason::code).toList()
                            + " (" + Failures.describe(e) + "); nothing was applied",
                    e);
        }
        return TransactionResult.notApplied(failures);
    }

    static String describe(Transaction transaction) {
        return "transaction on " + transaction.keyCount() + " keys (first write to '"
                + transaction.mutations().get(0).key() + "')";
    }

    /** One action's key and the condition it was sent with, to read a failure of it. */
    private record Step(MetaKey key, WriteCondition condition) {}
}
