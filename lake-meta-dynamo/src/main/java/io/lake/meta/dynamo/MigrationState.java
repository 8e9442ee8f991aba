package io.lake.meta.dynamo;

import io.lake.meta.MetaStoreException;
import io.lake.meta.OutcomeUnknownException;
import io.lake.meta.StoreUnavailableException;
import io.lake.meta.Ticker;
import io.lake.meta.WriteBarrierException;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/**
 * Reads and writes the migration's internal records (see {@link MigrationRecords}): the
 * backfill cursor, the write barrier and the completion marker. Every write is conditional, so
 * two migration processes never silently overwrite each other's records.
 */
final class MigrationState {

    /**
     * The durable cursor: where the next page starts (empty: at the beginning), its totals, and its
     * revision. The backfill scans the legacy table ({@code position}: a legacy hash key), then
     * sweeps the v2 table for copies the legacy table no longer has ({@code sweeping}, from
     * {@code sweepFrom}: a v2 key).
     */
    record Cursor(
            Optional<String> position,
            boolean sweeping,
            Optional<Map<String, AttributeValue>> sweepFrom,
            BackfillPage.BackfillTotals totals,
            long revision) {

        static final Cursor START =
                new Cursor(Optional.empty(), false, Optional.empty(), BackfillPage.BackfillTotals.NONE, 0);
    }

    private static final String POSITION = "position";
    private static final String DONE = "done";
    private static final String REVISION = "revision";
    private static final String SWEEPING = "sweeping";
    private static final String SWEEP_HASH = "sweep_pk";
    private static final String SWEEP_RANGE = "sweep_sk";
    private static final String HOLDER = "holder";
    private static final String INSTALLED_AT = "installed_at";
    private static final String ITEMS = "items";
    private static final String DIGEST = "digest";
    private static final String FINALIZED_AT = "finalized_at";
    static final String HORIZON = "rollback_horizon_passed";
    private static final String PUBLISHER = "barrier_holder";

    private final DynamoDbClient client;
    private final String legacyTable;
    private final String table;
    private final Ticker ticker;

    MigrationState(DynamoDbClient client, String legacyTable, String table, Ticker ticker) {
        this.ticker = ticker;
        this.client = client;
        this.legacyTable = legacyTable;
        this.table = table;
    }

    /** The clock the migration measures a transaction's resend window with. */
    Ticker ticker() {
        return ticker;
    }

    Cursor cursor() {
        Map<String, AttributeValue> item =
                read(table, MigrationRecords.v2Key(MigrationRecords.CURSOR), "the backfill cursor");
        if (item == null) {
            return Cursor.START;
        }
        BackfillPage.BackfillTotals totals = new BackfillPage.BackfillTotals(
                n(item, "pages"),
                n(item, "scanned"),
                n(item, "copied"),
                n(item, "equal"),
                n(item, "reloaded"),
                item.get(DONE) != null && Boolean.TRUE.equals(item.get(DONE).bool()));
        AttributeValue position = item.get(POSITION);
        boolean sweeping = item.get(SWEEPING) != null
                && Boolean.TRUE.equals(item.get(SWEEPING).bool());
        Optional<Map<String, AttributeValue>> sweepFrom = item.get(SWEEP_HASH) == null
                ? Optional.empty()
                : Optional.of(V2Layout.keyOf(
                        item.get(SWEEP_HASH).s(),
                        Objects.requireNonNull(item.get(SWEEP_RANGE), "sweep position without its range")
                                .s()));
        return new Cursor(
                position == null ? Optional.empty() : Optional.of(position.s()),
                sweeping,
                sweepFrom,
                totals,
                n(item, REVISION));
    }

    /**
     * Moves the cursor from {@code from} to {@code to}, only if no other backfill moved it since
     * {@code from} was read.
     */
    void advance(Cursor from, Cursor to) {
        Map<String, AttributeValue> item = new HashMap<>(MigrationRecords.v2Key(MigrationRecords.CURSOR));
        BackfillPage.BackfillTotals t = to.totals();
        item.put("pages", num(t.pages()));
        item.put("scanned", num(t.scanned()));
        item.put("copied", num(t.copied()));
        item.put("equal", num(t.alreadyEqual()));
        item.put("reloaded", num(t.reloaded()));
        item.put(DONE, AttributeValue.fromBool(t.done()));
        item.put(REVISION, num(to.revision()));
        to.position().ifPresent(p -> item.put(POSITION, AttributeValue.fromS(p)));
        item.put(SWEEPING, AttributeValue.fromBool(to.sweeping()));
        to.sweepFrom().ifPresent(k -> {
            item.put(SWEEP_HASH, k.get(V2Layout.HASH));
            item.put(SWEEP_RANGE, k.get(V2Layout.RANGE));
        });
        AttemptLog log = new AttemptLog();
        try {
            if (from.revision() == 0) {
                client.putItem(r -> r.tableName(table)
                        .item(item)
                        .conditionExpression("attribute_not_exists(#k)")
                        .expressionAttributeNames(Map.of("#k", V2Layout.RANGE))
                        .overrideConfiguration(log.attachToSingleItemWrite(client)));
            } else {
                client.putItem(r -> r.tableName(table)
                        .item(item)
                        .conditionExpression("#r = :r")
                        .expressionAttributeNames(Map.of("#r", REVISION))
                        .expressionAttributeValues(Map.of(":r", num(from.revision())))
                        .overrideConfiguration(log.attachToSingleItemWrite(client)));
            }
        } catch (ConditionalCheckFailedException e) {
            if (log.earlierAttemptMayHaveApplied(e)) {
                throw Failures.outcomeUnknown("moving the backfill cursor", e, log, table);
            }
            throw new StoreUnavailableException(
                    "the backfill cursor in table '" + table + "' was moved by another"
                            + " backfill while this page was copied; nothing is lost (the page is replayed): run one backfill at a"
                            + " time",
                    e);
        } catch (SdkException e) {
            throw Failures.onWrite("moving the backfill cursor", e, log, table);
        }
    }

    /**
     * Records that the two tables are a migration's pair, from the first DUAL open or migration
     * build on: a store in mode V2 then refuses the v2 table until the rollback horizon is
     * declared, even before the backfill stored its first cursor. Idempotent; never removed.
     */
    void markStarted() {
        Map<String, AttributeValue> item = new HashMap<>(MigrationRecords.v2Key(MigrationRecords.STARTED));
        item.put("legacy_table", AttributeValue.fromS(legacyTable));
        item.put("started_at", AttributeValue.fromS(Instant.now().toString()));
        AttemptLog log = new AttemptLog();
        try {
            client.putItem(r -> r.tableName(table)
                    .item(item)
                    .conditionExpression("attribute_not_exists(#k)")
                    .expressionAttributeNames(Map.of("#k", V2Layout.RANGE))
                    .overrideConfiguration(log.attachToSingleItemWrite(client)));
        } catch (ConditionalCheckFailedException e) {
            // recorded already (by another store, or by an earlier attempt of this call)
        } catch (SdkException e) {
            throw Failures.onWrite(
                    "recording that '" + table + "' is the target of a migration from '" + legacyTable + "'",
                    e,
                    log,
                    table);
        }
    }

    /**
     * Sends the backfill back to the start (removes the cursor): after a failed verification, so
     * that backfilling again repairs what differs (the v2 copy is derived data until finalized).
     */
    void resetCursor() {
        AttemptLog log = new AttemptLog();
        try {
            client.deleteItem(r -> r.tableName(table)
                    .key(MigrationRecords.v2Key(MigrationRecords.CURSOR))
                    .overrideConfiguration(log.attachToSingleItemWrite(client)));
        } catch (SdkException e) {
            throw Failures.onWrite("resetting the backfill cursor", e, log, table);
        }
    }

    Optional<MigrationStatus.Barrier> barrier() {
        Map<String, AttributeValue> item =
                read(table, MigrationRecords.v2Key(MigrationRecords.BARRIER), "the write barrier");
        if (item == null) {
            return Optional.empty();
        }
        return Optional.of(new MigrationStatus.Barrier(s(item, HOLDER), instant(item, INSTALLED_AT)));
    }

    Optional<MigrationStatus.Completion> completion() {
        Map<String, AttributeValue> item =
                read(table, MigrationRecords.v2Key(MigrationRecords.COMPLETE), "the completion marker");
        if (item == null) {
            return Optional.empty();
        }
        return Optional.of(completionOf(item));
    }

    /** The holder of the barrier under which the completion marker was published; empty without a marker (or from an older version). */
    Optional<String> completionPublisher() {
        Map<String, AttributeValue> item =
                read(table, MigrationRecords.v2Key(MigrationRecords.COMPLETE), "the completion marker");
        return item == null || item.get(PUBLISHER) == null
                ? Optional.empty()
                : Optional.of(item.get(PUBLISHER).s());
    }

    /** Which completion marker exists, as a v2-authority read checks it: its identity, and whether the horizon passed. */
    record MarkerSeen(String identity, boolean horizonPassed) {}

    /** The completion marker now (one consistent GetItem); empty when none exists. */
    Optional<MarkerSeen> markerSeen() {
        Map<String, AttributeValue> item =
                read(table, MigrationRecords.v2Key(MigrationRecords.COMPLETE), "the completion marker");
        return item == null ? Optional.empty() : Optional.of(markerSeenIn(item));
    }

    /**
     * A marker's identity: the barrier it was published under (a random id per finalize), so that a
     * marker withdrawn by a rollback and published again by a later finalize is a different one.
     */
    static MarkerSeen markerSeenIn(Map<String, AttributeValue> item) {
        String identity = item.get(PUBLISHER) != null ? item.get(PUBLISHER).s() : s(item, FINALIZED_AT);
        return new MarkerSeen(identity, completionOf(item).rollbackHorizonPassed());
    }

    static MigrationStatus.Completion completionOf(Map<String, AttributeValue> item) {
        AttributeValue horizon = item.get(HORIZON);
        return new MigrationStatus.Completion(
                n(item, ITEMS),
                s(item, DIGEST),
                instant(item, FINALIZED_AT),
                horizon != null && Boolean.TRUE.equals(horizon.bool()));
    }

    /** What {@link #withdrawCompletion} found. */
    enum Withdrawal {
        WITHDRAWN,
        BARRIER_LOST,
        MARKER_GONE_OR_HORIZON_DECLARED
    }

    /**
     * Removes the completion marker from both tables (a rollback to the legacy authority), in one
     * transaction that checks {@code barrier} is still ours and the rollback horizon was not declared.
     */
    Withdrawal withdrawCompletion(MigrationStatus.Barrier barrier) {
        List<TransactWriteItem> actions = List.of(
                TransactActions.check(
                        table,
                        MigrationRecords.v2Key(MigrationRecords.BARRIER),
                        "#h = :h",
                        Map.of("#h", HOLDER),
                        Map.of(":h", AttributeValue.fromS(barrier.holder()))),
                TransactWriteItem.builder()
                        .delete(d -> d.tableName(table)
                                .key(MigrationRecords.v2Key(MigrationRecords.COMPLETE))
                                .conditionExpression("attribute_exists(#k) AND NOT #z = :t")
                                .expressionAttributeNames(Map.of("#k", V2Layout.RANGE, "#z", HORIZON))
                                .expressionAttributeValues(Map.of(":t", AttributeValue.fromBool(true))))
                        .build(),
                TransactWriteItem.builder()
                        .delete(d -> d.tableName(legacyTable).key(MigrationRecords.v1CompleteKey()))
                        .build(),
                // the legacy table is the authority again and will change alone (V1 writers): the next
                // backfill starts over, so that a later finalize can succeed
                TransactWriteItem.builder()
                        .delete(d -> d.tableName(table).key(MigrationRecords.v2Key(MigrationRecords.CURSOR)))
                        .build());
        List<CancellationReason> refused = transactRecords("withdrawing the completion marker", actions);
        if (refused.isEmpty()) {
            return Withdrawal.WITHDRAWN;
        }
        return TransactActions.failed(refused.get(0))
                ? Withdrawal.BARRIER_LOST
                : Withdrawal.MARKER_GONE_OR_HORIZON_DECLARED;
    }

    /**
     * Records in both copies of the marker that the rollback horizon passed: from now on the
     * legacy table is no longer kept, and no rollback is possible.
     *
     * @return false when there is no marker
     */
    boolean declareHorizon() {
        List<TransactWriteItem> actions = new java.util.ArrayList<>();
        actions.add(TransactWriteItem.builder()
                .update(u -> u.tableName(table)
                        .key(MigrationRecords.v2Key(MigrationRecords.COMPLETE))
                        .updateExpression("SET #z = :t")
                        .conditionExpression("attribute_exists(#k)")
                        .expressionAttributeNames(Map.of("#z", HORIZON, "#k", V2Layout.RANGE))
                        .expressionAttributeValues(Map.of(":t", AttributeValue.fromBool(true))))
                .build());
        actions.add(TransactWriteItem.builder()
                .update(u -> u.tableName(legacyTable)
                        .key(MigrationRecords.v1CompleteKey())
                        .updateExpression("SET #z = :t")
                        .conditionExpression("attribute_exists(#k)")
                        .expressionAttributeNames(Map.of("#z", HORIZON, "#k", V1Layout.HASH))
                        .expressionAttributeValues(Map.of(":t", AttributeValue.fromBool(true))))
                .build());
        return transactRecords("declaring the rollback horizon passed", actions).isEmpty();
    }

    /** One transaction on the internal records; answers the cancellation's reasons, none when it applied. */
    private List<CancellationReason> transactRecords(String what, List<TransactWriteItem> actions) {
        String token = UUID.randomUUID().toString();
        AttemptLog log = new AttemptLog();
        try {
            client.transactWriteItems(r -> r.transactItems(actions)
                    .clientRequestToken(token)
                    .overrideConfiguration(log.attachToTransaction(client, ticker)));
            return List.of();
        } catch (TransactionCanceledException e) {
            Failures.requireConclusive(what, e, log, table);
            return TransactActions.conditionFailures(what, actions.size(), e);
        } catch (SdkException e) {
            throw Failures.onWrite(what, e, log, table);
        }
    }

    /**
     * Installs the write barrier for a new finalizer.
     *
     * @return the barrier installed
     * @throws WriteBarrierException if a barrier is installed already (another finalizer, or one that stopped)
     */
    MigrationStatus.Barrier installBarrier() {
        MigrationStatus.Barrier barrier =
                new MigrationStatus.Barrier(UUID.randomUUID().toString(), Instant.now());
        Map<String, AttributeValue> item = new HashMap<>(MigrationRecords.v2Key(MigrationRecords.BARRIER));
        item.put(HOLDER, AttributeValue.fromS(barrier.holder()));
        item.put(INSTALLED_AT, AttributeValue.fromS(barrier.installedAt().toString()));
        AttemptLog log = new AttemptLog();
        try {
            client.putItem(r -> r.tableName(table)
                    .item(item)
                    .conditionExpression("attribute_not_exists(#k)")
                    .expressionAttributeNames(Map.of("#k", V2Layout.RANGE))
                    .overrideConfiguration(log.attachToSingleItemWrite(client)));
            return barrier;
        } catch (ConditionalCheckFailedException e) {
            Optional<MigrationStatus.Barrier> held = barrier();
            if (held.isPresent() && held.get().holder().equals(barrier.holder())) {
                return barrier; // an earlier attempt of this call installed it
            }
            throw new WriteBarrierException(
                    "a write barrier is already installed in table '" + table + "'"
                            + held.map(b -> " by finalizer " + b.holder() + " since " + b.installedAt())
                                    .orElse("")
                            + ": another finalize is running, or one stopped before releasing it (lake-meta dynamo-migrate"
                            + " status shows it; lake-meta dynamo-migrate release-barrier releases one whose finalizer is gone)");
        } catch (SdkException e) {
            MetaStoreException failure = Failures.onWrite("installing the write barrier", e, log, table);
            if (failure instanceof OutcomeUnknownException
                    && barrier()
                            .filter(b -> b.holder().equals(barrier.holder()))
                            .isPresent()) {
                return barrier;
            }
            throw failure;
        }
    }

    /** Removes the barrier if {@code barrier} still holds it (or, with null, whichever barrier is there). */
    boolean releaseBarrier(MigrationStatus.Barrier barrier) {
        AttemptLog log = new AttemptLog();
        try {
            if (barrier == null) {
                client.deleteItem(r -> r.tableName(table)
                        .key(MigrationRecords.v2Key(MigrationRecords.BARRIER))
                        .conditionExpression("attribute_exists(#k)")
                        .expressionAttributeNames(Map.of("#k", V2Layout.RANGE))
                        .overrideConfiguration(log.attachToSingleItemWrite(client)));
            } else {
                client.deleteItem(r -> r.tableName(table)
                        .key(MigrationRecords.v2Key(MigrationRecords.BARRIER))
                        .conditionExpression("#h = :h")
                        .expressionAttributeNames(Map.of("#h", HOLDER))
                        .expressionAttributeValues(Map.of(":h", AttributeValue.fromS(barrier.holder())))
                        .overrideConfiguration(log.attachToSingleItemWrite(client)));
            }
            return true;
        } catch (ConditionalCheckFailedException e) {
            return false;
        } catch (SdkException e) {
            throw Failures.onWrite("releasing the write barrier", e, log, table);
        }
    }

    /**
     * Publishes the completion marker in both tables, in one transaction that also checks that
     * {@code barrier} is still installed: the verified content cannot have changed since.
     */
    void publishCompletion(MigrationStatus.Barrier barrier, long items, String digest) {
        Instant now = Instant.now();
        Map<String, AttributeValue> marker = new HashMap<>();
        marker.put(ITEMS, num(items));
        marker.put(DIGEST, AttributeValue.fromS(digest));
        marker.put(FINALIZED_AT, AttributeValue.fromS(now.toString()));
        marker.put(PUBLISHER, AttributeValue.fromS(barrier.holder()));
        Map<String, AttributeValue> v2Marker = new HashMap<>(marker);
        v2Marker.putAll(MigrationRecords.v2Key(MigrationRecords.COMPLETE));
        Map<String, AttributeValue> v1Marker = new HashMap<>(marker);
        v1Marker.putAll(MigrationRecords.v1CompleteKey());
        List<TransactWriteItem> actions = List.of(
                TransactActions.check(
                        table,
                        MigrationRecords.v2Key(MigrationRecords.BARRIER),
                        "#h = :h",
                        Map.of("#h", HOLDER),
                        Map.of(":h", AttributeValue.fromS(barrier.holder()))),
                TransactWriteItem.builder()
                        .put(p -> p.tableName(table)
                                .item(v2Marker)
                                .conditionExpression("attribute_not_exists(#k)")
                                .expressionAttributeNames(Map.of("#k", V2Layout.RANGE)))
                        .build(),
                TransactWriteItem.builder()
                        .put(p -> p.tableName(legacyTable)
                                .item(v1Marker)
                                .conditionExpression("attribute_not_exists(#k)")
                                .expressionAttributeNames(Map.of("#k", V1Layout.HASH)))
                        .build());
        String token = UUID.randomUUID().toString();
        AttemptLog log = new AttemptLog();
        try {
            client.transactWriteItems(r -> r.transactItems(actions)
                    .clientRequestToken(token)
                    .overrideConfiguration(log.attachToTransaction(client, ticker)));
        } catch (TransactionCanceledException e) {
            Failures.requireConclusive("publishing the completion marker", e, log, table);
            // a retryable reason (a transaction conflict, throttling) is StoreUnavailableException: nothing applied
            List<CancellationReason> reasons =
                    TransactActions.conditionFailures("publishing the completion marker", 3, e);
            String why = TransactActions.failed(reasons.get(0))
                    ? "this finalizer's write barrier was released by someone else (dynamo-migrate release-barrier) while it verified"
                    : "a completion marker exists already (another finalizer published one)";
            throw new DynamoStoreException(
                    "publishing the completion marker was refused: " + why + "; nothing was"
                            + " published: check lake-meta dynamo-migrate status, then finalize again",
                    e);
        } catch (SdkException e) {
            throw Failures.onWrite("publishing the completion marker", e, log, table);
        }
    }

    private @Nullable Map<String, AttributeValue> read(String t, Map<String, AttributeValue> key, String what) {
        try {
            var response = client.getItem(r -> r.tableName(t).key(key).consistentRead(true));
            return response.hasItem() && !response.item().isEmpty() ? response.item() : null;
        } catch (SdkException e) {
            throw Failures.onRead("reading " + what, e, t);
        }
    }

    private static long n(Map<String, AttributeValue> item, String name) {
        AttributeValue v = item.get(name);
        return v == null || v.n() == null ? 0 : Long.parseLong(v.n());
    }

    private static String s(Map<String, AttributeValue> item, String name) {
        AttributeValue v = item.get(name);
        return v == null || v.s() == null ? "" : v.s();
    }

    private static Instant instant(Map<String, AttributeValue> item, String name) {
        String text = s(item, name);
        try {
            return text.isEmpty() ? Instant.EPOCH : Instant.parse(text);
        } catch (RuntimeException e) {
            return Instant.EPOCH;
        }
    }

    private static AttributeValue num(long n) {
        return AttributeValue.fromN(Long.toString(n));
    }
}
