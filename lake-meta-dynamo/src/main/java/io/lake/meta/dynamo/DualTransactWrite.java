package io.lake.meta.dynamo;

import io.lake.meta.Condition;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaValue;
import io.lake.meta.Mutation;
import io.lake.meta.Ticker;
import io.lake.meta.Transaction;
import io.lake.meta.TransactionFailure;
import io.lake.meta.TransactionResult;
import io.lake.meta.WriteBarrierException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/**
 * A write of mode {@link DynamoLayoutMode#DUAL}: one {@code TransactWriteItems} (with a
 * {@code ClientRequestToken}) that changes both copies of every mutated key, in the {@link Form}
 * the store believes the migration is in, and proves that belief inside the same transaction.
 *
 * <pre>
 *   per condition   ConditionCheck on the authority copy                      1 item
 *   per mutation    Put/Delete of the authority copy, on the expected bytes   2 items
 *                   Put/Delete of the other copy: unconditional while the v2
 *                   copy is derived data (V1_DERIVED), else on exactly the
 *                   expected bytes too (absent, for a create)
 *   once            ConditionCheck on the completion marker: absent for
 *                   V1_DERIVED, present otherwise                             1 item
 *   once            ConditionCheck that no write barrier is installed         1 item
 * </pre>
 *
 * So a transaction of {@code n} keys uses at most {@code 2n + 2} of DynamoDB's 100 items:
 * {@value #MAX_KEYS} keys at most; and it sends every value twice: {@value #MAX_BYTES} bytes of
 * keys and values at most. A cancellation is read in this order: the barrier held →
 * {@link WriteBarrierException} (retryable, nothing moved); the marker not as the form says →
 * {@link PhaseChanged} (nothing moved; the store picks the form the marker proves and sends the
 * write again); the two copies of some key holding different bytes → {@link CopiesDivergedException}
 * naming the keys; otherwise the authority's failed conditions, as on a single table.
 */
final class DualTransactWrite {

    /** Keys per dual transaction: 2 × 49 + 2 = 100 items. */
    static final int MAX_KEYS = 49;

    /**
     * Bytes of keys and values per dual transaction: half the contract's 2 MiB, because each is
     * sent twice (one per copy) and DynamoDB takes at most 4 MB of request per transaction.
     */
    static final int MAX_BYTES = io.lake.meta.Limits.MAX_TRANSACTION_BYTES / 2;

    /** What a dual write assumes about the migration, proven by the marker check in the same transaction. */
    enum Form {
        /**
         * The legacy table is the authority and nothing is finalized (no marker): the v2 copy is
         * derived data, overwritten from every write, so a legacy-only change (a V1 writer during
         * the rollout, or after a rollback) is repaired, never a divergence.
         */
        V1_DERIVED(DualAuthority.V1),
        /** The legacy table is the authority of this store, but the marker exists: both copies are kept exactly equal. */
        V1_KEPT(DualAuthority.V1),
        /** The v2 table is the authority (the marker exists): both copies are kept exactly equal. */
        V2_KEPT(DualAuthority.V2);

        final DualAuthority authority;

        Form(DualAuthority authority) {
            this.authority = authority;
        }

        /** The form to use when this one's marker check failed: the marker is the other way. */
        Form afterMarkerChange() {
            return this == V1_DERIVED ? V1_KEPT : V1_DERIVED;
        }
    }

    /** The completion marker is not as the form assumed: nothing was written; send again in {@link #next}. */
    static final class PhaseChanged extends RuntimeException {

        final Form next;

        PhaseChanged(Form next) {
            super(null, null, false, false);
            this.next = next;
        }
    }

    /** One table's copy of the data, and how its items look. */
    record Copy(String table, ItemLayout layout) {}

    private enum Kind {
        CONDITION,
        AUTHORITY,
        OTHER,
        MARKER,
        BARRIER
    }

    /** One action of the transaction; the marker and barrier checks have no key, only checks have no mutation. */
    private record Step(
            Kind kind,
            @Nullable MetaKey key,
            @Nullable WriteCondition condition,
            @Nullable Mutation mutation) {}

    /** The key of a step on a key: every step but the marker and barrier checks, which come last. */
    private static MetaKey keyOf(Step step) {
        return Objects.requireNonNull(step.key(), "a marker or barrier step has no key");
    }

    /** The condition of a step that has one: every step but the derived write of a V1-derived copy. */
    private static WriteCondition conditionOf(Step step) {
        return Objects.requireNonNull(step.condition(), "a derived write has no condition");
    }

    private final DynamoDbClient client;
    private final Copy legacy;
    private final Copy v2;
    private final Ticker ticker;

    DualTransactWrite(DynamoDbClient client, Copy legacy, Copy v2, Ticker ticker) {
        this.client = client;
        this.legacy = legacy;
        this.v2 = v2;
        this.ticker = ticker;
    }

    TransactionResult run(Transaction transaction, Form form) {
        Copy authority = form.authority == DualAuthority.V1 ? legacy : v2;
        Copy other = form.authority == DualAuthority.V1 ? v2 : legacy;
        List<TransactWriteItem> actions = new ArrayList<>(2 * transaction.keyCount() + 2);
        List<Step> steps = new ArrayList<>(2 * transaction.keyCount() + 2);
        for (Condition condition : transaction.conditions()) {
            WriteCondition when = WriteCondition.of(condition, authority.layout());
            actions.add(TransactActions.check(authority.table(), authority.layout(), condition.key(), when));
            steps.add(new Step(Kind.CONDITION, condition.key(), when, null));
        }
        for (Mutation mutation : transaction.mutations()) {
            WriteCondition when = WriteCondition.of(mutation, authority.layout());
            actions.add(TransactActions.write(authority.table(), authority.layout(), mutation, when));
            steps.add(new Step(Kind.AUTHORITY, mutation.key(), when, mutation));
            if (form == Form.V1_DERIVED) {
                actions.add(TransactActions.overwrite(other.table(), other.layout(), mutation));
                steps.add(new Step(Kind.OTHER, mutation.key(), null, mutation));
            } else {
                WriteCondition copyWhen = WriteCondition.of(mutation, other.layout());
                actions.add(TransactActions.write(other.table(), other.layout(), mutation, copyWhen));
                steps.add(new Step(Kind.OTHER, mutation.key(), copyWhen, mutation));
            }
        }
        WriteCondition marker =
                form == Form.V1_DERIVED ? WriteCondition.absent(v2.layout()) : WriteCondition.present(v2.layout());
        actions.add(TransactActions.check(v2.table(), MigrationRecords.v2Key(MigrationRecords.COMPLETE), marker));
        steps.add(new Step(Kind.MARKER, null, marker, null));
        WriteCondition noBarrier = WriteCondition.absent(v2.layout());
        actions.add(TransactActions.check(v2.table(), MigrationRecords.v2Key(MigrationRecords.BARRIER), noBarrier));
        steps.add(new Step(Kind.BARRIER, null, noBarrier, null));

        String token = UUID.randomUUID().toString(); // the SDK resends the same token on its retries
        AttemptLog log = new AttemptLog();
        String what = "dual write, " + TransactWrite.describe(transaction);
        try {
            client.transactWriteItems(r -> r.transactItems(actions)
                    .clientRequestToken(token)
                    .overrideConfiguration(log.attachToTransaction(client, ticker)));
            return TransactionResult.applied();
        } catch (TransactionCanceledException e) {
            Failures.requireConclusive(what, e, log, authority.table());
            return cancelled(what, form, authority, other, steps, e);
        } catch (ResourceNotFoundException e) {
            throw new DynamoStoreException(
                    what + " failed: table '" + legacy.table() + "' or table '" + v2.table()
                            + "' was not found (deleted, or the client points at another region or endpoint); nothing was"
                            + " written",
                    e);
        } catch (SdkException e) {
            throw Failures.onWrite(what, e, log, authority.table());
        }
    }

    private TransactionResult cancelled(
            String what, Form form, Copy authority, Copy other, List<Step> steps, TransactionCanceledException e) {
        List<CancellationReason> reasons = TransactActions.conditionFailures(what, steps.size(), e);
        if (TransactActions.failed(reasons.get(steps.size() - 1))) {
            throw new WriteBarrierException(
                    what + " was refused: the migration's write barrier is installed in table '"
                            + v2.table()
                            + "' (a finalize or rollback is verifying the copies, or one stopped before releasing"
                            + " it: lake-meta dynamo-migrate status shows which); nothing was written; retry after a short backoff");
        }
        if (TransactActions.failed(reasons.get(steps.size() - 2))) {
            throw new PhaseChanged(form.afterMarkerChange());
        }
        List<TransactionFailure> failures = new ArrayList<>();
        List<MetaKey> diverged = new ArrayList<>();
        StringBuilder differences = new StringBuilder();
        for (int i = 0; i < steps.size() - 2; i++) {
            Step step = steps.get(i);
            CancellationReason reason = reasons.get(i);
            if (step.kind() == Kind.OTHER) {
                if (form == Form.V1_DERIVED) {
                    continue; // unconditional: derived data
                }
                Mutation mutation = Objects.requireNonNull(step.mutation()); // a step on the other copy writes one
                Optional<Optional<MetaValue>> authorityNow =
                        current(mutation, steps.get(i - 1), reasons.get(i - 1), authority);
                Optional<Optional<MetaValue>> otherNow = current(mutation, step, reason, other);
                if (authorityNow.isPresent()
                        && otherNow.isPresent()
                        && !authorityNow.get().equals(otherNow.get())) {
                    diverged.add(step.key());
                    differences
                            .append(differences.length() == 0 ? "" : "; ")
                            .append("'")
                            .append(step.key())
                            .append("': ")
                            .append(authority.table())
                            .append(" holds ")
                            .append(describe(authorityNow.get()))
                            .append(", ")
                            .append(other.table())
                            .append(" holds ")
                            .append(describe(otherNow.get()));
                }
            } else if (TransactActions.failed(reason)) {
                failures.add(conditionOf(step).failure(keyOf(step), TransactActions.itemOf(reason), authority.table()));
            }
        }
        if (!diverged.isEmpty()) {
            throw new CopiesDivergedException(
                    what + " found the copies of " + diverged.size() + " key(s) different: "
                            + differences + "; nothing was written. Something wrote one table without the other after"
                            + " finalization (a store left in mode V1, a hand edit): decide which copy is right and repair the"
                            + " other (see the DynamoDB migration guide), then retry",
                    diverged);
        }
        if (failures.isEmpty()) {
            throw new DynamoStoreException(
                    what + " was cancelled without a failing action: "
                            + reasons.stream().map(CancellationReason::code).toList() + " (" + Failures.describe(e)
                            + "); nothing was applied",
                    e);
        }
        return TransactionResult.notApplied(failures);
    }

    /**
     * What one copy held when the transaction was evaluated: the expected bytes (absent, for a
     * create) when its condition held, else what its failure returned; empty when unknown.
     */
    private static Optional<Optional<MetaValue>> current(
            Mutation mutation, Step step, CancellationReason reason, Copy copy) {
        if (!TransactActions.failed(reason)) {
            if (mutation instanceof Mutation.Create) {
                return Optional.of(Optional.empty());
            }
            return Optional.of(Optional.of(
                    mutation instanceof Mutation.Update
                            ? ((Mutation.Update) mutation).expected()
                            : ((Mutation.Delete) mutation).expected()));
        }
        TransactionFailure failure =
                conditionOf(step).failure(keyOf(step), TransactActions.itemOf(reason), copy.table());
        return failure.isCurrentKnown() ? Optional.of(failure.currentValue()) : Optional.empty();
    }

    /** A value's size, not its bytes: values may be secret. */
    private static String describe(Optional<MetaValue> value) {
        return value.map(v -> v.size() + " bytes").orElse("nothing");
    }
}
