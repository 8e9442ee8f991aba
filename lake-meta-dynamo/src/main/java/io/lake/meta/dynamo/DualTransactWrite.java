package io.lake.meta.dynamo;

import io.lake.meta.Condition;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaValue;
import io.lake.meta.Mutation;
import io.lake.meta.Transaction;
import io.lake.meta.TransactionFailure;
import io.lake.meta.TransactionResult;
import io.lake.meta.WriteBarrierException;
import io.lake.meta.lease.Ticker;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/**
 * A write of mode {@link DynamoLayoutMode#DUAL}: one {@code TransactWriteItems} (with a
 * {@code ClientRequestToken}) that changes both copies of every mutated key.
 *
 * <pre>
 *   per condition   ConditionCheck on the authority copy                      1 item
 *   per mutation    Put/Delete of the authority copy, on the expected bytes   2 items
 *                   Put/Delete of the other copy, which must be absent or
 *                   hold exactly those bytes (absent, for a create)
 *   once            ConditionCheck that no write barrier is installed         1 item
 * </pre>
 *
 * So a transaction of {@code n} keys uses at most {@code 2n + 1} of DynamoDB's 100 items:
 * {@value #MAX_KEYS} keys at most; and it sends every value twice: {@value #MAX_BYTES} bytes of
 * keys and values at most. A cancellation is read in this order: the barrier held →
 * {@link WriteBarrierException} (retryable, nothing moved); the other copy of some key holding
 * different bytes than the authority copy → {@link CopiesDivergedException} naming the keys;
 * otherwise the authority's failed conditions, as on a single table.
 */
final class DualTransactWrite {

    /** Keys per dual transaction: 2 × 49 + 1 = 99 items. */
    static final int MAX_KEYS = 49;

    /**
     * Bytes of keys and values per dual transaction: half the contract's 2 MiB, because each is
     * sent twice (one per copy) and DynamoDB takes at most 4 MB of request per transaction.
     */
    static final int MAX_BYTES = io.lake.meta.Limits.MAX_TRANSACTION_BYTES / 2;

    /** One table's copy of the data, and how its items look. */
    record Copy(String table, ItemLayout layout) {
    }

    private enum Kind { CONDITION, AUTHORITY, OTHER, BARRIER }

    private record Step(Kind kind, MetaKey key, WriteCondition condition, Mutation mutation) {
    }

    private final DynamoDbClient client;
    private final Copy authority;
    private final Copy other;
    private final Copy v2;
    private final Ticker ticker;

    DualTransactWrite(DynamoDbClient client, Copy authority, Copy other, Copy v2, Ticker ticker) {
        this.ticker = ticker;
        this.client = client;
        this.authority = authority;
        this.other = other;
        this.v2 = v2;
    }

    TransactionResult run(Transaction transaction) {
        List<TransactWriteItem> actions = new ArrayList<>(2 * transaction.keyCount() + 1);
        List<Step> steps = new ArrayList<>(2 * transaction.keyCount() + 1);
        for (Condition condition : transaction.conditions()) {
            WriteCondition when = WriteCondition.of(condition, authority.layout());
            actions.add(TransactActions.check(authority.table(), authority.layout(), condition.key(), when));
            steps.add(new Step(Kind.CONDITION, condition.key(), when, null));
        }
        for (Mutation mutation : transaction.mutations()) {
            WriteCondition when = WriteCondition.of(mutation, authority.layout());
            actions.add(TransactActions.write(authority.table(), authority.layout(), mutation, when));
            steps.add(new Step(Kind.AUTHORITY, mutation.key(), when, mutation));
            WriteCondition copyWhen = WriteCondition.absentOrAsExpected(mutation, other.layout());
            actions.add(TransactActions.write(other.table(), other.layout(), mutation, copyWhen));
            steps.add(new Step(Kind.OTHER, mutation.key(), copyWhen, mutation));
        }
        WriteCondition noBarrier = WriteCondition.absent(v2.layout());
        actions.add(TransactActions.check(v2.table(), MigrationRecords.v2Key(MigrationRecords.BARRIER), noBarrier));
        steps.add(new Step(Kind.BARRIER, null, noBarrier, null));

        String token = UUID.randomUUID().toString(); // the SDK resends the same token on its retries
        AttemptLog log = new AttemptLog();
        String what = "dual write, " + TransactWrite.describe(transaction);
        try {
            client.transactWriteItems(r -> r.transactItems(actions).clientRequestToken(token)
                    .overrideConfiguration(log.attachToTransaction(client, ticker)));
            return TransactionResult.applied();
        } catch (TransactionCanceledException e) {
            Failures.requireConclusive(what, e, log, authority.table());
            return cancelled(what, steps, e);
        } catch (SdkException e) {
            throw Failures.onWrite(what, e, log, authority.table());
        }
    }

    private TransactionResult cancelled(String what, List<Step> steps, TransactionCanceledException e) {
        List<CancellationReason> reasons = TransactActions.conditionFailures(what, steps.size(), e);
        if (TransactActions.failed(reasons.get(steps.size() - 1))) {
            throw new WriteBarrierException(what + " was refused: the migration's write barrier is installed in table '"
                    + v2.table() + "' (a finalize is verifying the copies, or a finalizer stopped before releasing it:"
                    + " lake-meta dynamo-migrate --status shows which); nothing was written; retry after a short backoff");
        }
        List<TransactionFailure> failures = new ArrayList<>();
        List<MetaKey> diverged = new ArrayList<>();
        StringBuilder differences = new StringBuilder();
        for (int i = 0; i < steps.size() - 1; i++) {
            Step step = steps.get(i);
            CancellationReason reason = reasons.get(i);
            if (step.kind() == Kind.OTHER) {
                if (TransactActions.failed(reason)) {
                    Map<String, AttributeValue> item = TransactActions.itemOf(reason);
                    Optional<MetaValue> copy = item == null ? null : Optional.of(other.layout().valueIn(item, other.table()));
                    Optional<Optional<MetaValue>> current = authorityCurrent(step.mutation(), steps.get(i - 1), reasons.get(i - 1));
                    if (copy == null || current.isEmpty() || !current.get().equals(copy)) {
                        diverged.add(step.key());
                        differences.append(differences.length() == 0 ? "" : "; ").append("'").append(step.key())
                                .append("': ").append(authority.table()).append(" holds ")
                                .append(current.map(DualTransactWrite::describe).orElse("(unknown)"))
                                .append(", ").append(other.table()).append(" holds ").append(describe(copy));
                    }
                }
            } else if (TransactActions.failed(reason)) {
                failures.add(step.condition().failure(step.key(), TransactActions.itemOf(reason), authority.table()));
            }
        }
        if (!diverged.isEmpty()) {
            throw new CopiesDivergedException(what + " found the copies of " + diverged.size() + " key(s) different: "
                    + differences + "; nothing was written. Something wrote one table without the other (a store in mode"
                    + " V1, a hand edit): decide which copy is right and repair the other (see the DynamoDB migration"
                    + " guide), then retry", diverged);
        }
        if (failures.isEmpty()) {
            throw new DynamoStoreException(what + " was cancelled without a failing action: "
                    + reasons.stream().map(CancellationReason::code).toList() + " (" + Failures.describe(e)
                    + "); nothing was applied", e);
        }
        return TransactionResult.notApplied(failures);
    }

    /**
     * What the authority copy held when the transaction was evaluated: the expected bytes (or
     * absent, for a create) when its condition held, else what its failure returned; empty when
     * that is unknown (a failed create without an item).
     */
    private Optional<Optional<MetaValue>> authorityCurrent(Mutation mutation, Step authorityStep, CancellationReason reason) {
        if (!TransactActions.failed(reason)) {
            if (mutation instanceof Mutation.Create) {
                return Optional.of(Optional.empty());
            }
            return Optional.of(Optional.of(mutation instanceof Mutation.Update
                    ? ((Mutation.Update) mutation).expected() : ((Mutation.Delete) mutation).expected()));
        }
        TransactionFailure failure = authorityStep.condition().failure(authorityStep.key(), TransactActions.itemOf(reason),
                authority.table());
        return failure.isCurrentKnown() ? Optional.of(failure.currentValue()) : Optional.empty();
    }

    /** A value's size, not its bytes: values may be secret. Null: an item was there, but not sent. */
    private static String describe(Optional<MetaValue> value) {
        return value == null ? "an item (not returned)" : value.map(v -> v.size() + " bytes").orElse("nothing");
    }
}
