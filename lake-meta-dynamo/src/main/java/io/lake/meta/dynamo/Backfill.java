package io.lake.meta.dynamo;

import io.lake.meta.MetaKey;
import io.lake.meta.MetaStoreException;
import io.lake.meta.MetaValue;
import io.lake.meta.OutcomeUnknownException;
import io.lake.meta.StoreUnavailableException;
import io.lake.meta.spi.RaceHooks;
import java.util.ArrayList;
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
import software.amazon.awssdk.services.dynamodb.model.Delete;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/**
 * One backfill page: a strongly consistent Scan of at most {@code pageSize} items from the
 * durable cursor, each converged in the v2 table, and the cursor moved only once every item of
 * the page converged. The backfill scans the legacy table first, copying each item; then it
 * sweeps the v2 table for copies whose legacy item is gone (a V1 writer deleted it during the
 * rollout or after a rollback) and removes them. Then it is done.
 *
 * <p>Until the migration is finalized the legacy table is the authority and the v2 copy is derived
 * data: every transaction here checks that no completion marker exists, and repairs a v2 copy
 * that differs from the legacy item (a V1 writer changed only the legacy copy) instead of calling
 * it a divergence.
 *
 * <p>Items are copied in groups of at most {@value #GROUP_KEYS} per {@code TransactWriteItems}:
 * per item a {@code ConditionCheck} legacy {@code v = :read} and a {@code Put} of the v2 copy on
 * what the v2 copy was last seen to hold (absent at first), plus one {@code ConditionCheck} that
 * the marker is absent. A cancellation is read per item:
 * <ul>
 *   <li>the legacy check failed: the item changed or vanished since the Scan: it is read again,
 *       strongly consistently, and copied from that read (vanished: nothing to copy);</li>
 *   <li>the v2 put failed with the same bytes: converged (a dual write or a replay got there first);</li>
 *   <li>with other bytes: sent again on those bytes, so the legacy item's bytes replace them
 *       (only while the legacy item still holds what was read);</li>
 *   <li>neither: held back by the others, sent again.</li>
 * </ul>
 * So a stale value is never written, and a crash anywhere replays the page safely.
 */
final class Backfill {

    /** Reached after the page's Scan, before anything is copied. */
    static final String SCANNED = "dynamo.backfill.scanned";
    /** Reached after a sweep page's Scan of the v2 table, before anything is removed. */
    static final String SWEEP_SCANNED = "dynamo.backfill.sweep-scanned";
    /** Reached after each group's transaction committed, before the next one (and before the cursor moves). */
    static final String GROUP_COPIED = "dynamo.backfill.group-copied";

    static final int GROUP_KEYS = 25;
    /** Raw key and value bytes per group: each value is sent twice (the check and the put). */
    static final int GROUP_BYTES = 1 << 20;

    private static final int MAX_ROUNDS = 10;

    private final DynamoDbClient client;
    private final String legacyTable;
    private final String table;
    private final V2Layout layout;
    private final MigrationState state;
    private final RaceHooks hooks;
    private final TableScan legacy;
    private final TableScan v2;
    private final BatchRead legacyReads;

    Backfill(
            DynamoDbClient client,
            String legacyTable,
            String table,
            V2Layout layout,
            MigrationState state,
            RaceHooks hooks) {
        this.client = client;
        this.legacyTable = legacyTable;
        this.table = table;
        this.layout = layout;
        this.state = state;
        this.hooks = hooks;
        this.legacy = new TableScan(client, legacyTable, V1Layout.INSTANCE);
        this.v2 = new TableScan(client, table, layout);
        this.legacyReads = new BatchRead(client, legacyTable, V1Layout.INSTANCE);
    }

    /** Counts of one page. */
    private static final class Counts {
        long copied;
        long alreadyEqual;
        long reloaded;
    }

    /** A legacy item to converge, and what its v2 copy was last seen to hold (null: absent). */
    private record Pending(
            MetaKey key, MetaValue value, @Nullable MetaValue v2Seen) {

        Pending(TableScan.Item item) {
            this(item.key(), item.value(), null);
        }
    }

    BackfillPage page(int pageSize) {
        MigrationState.Cursor cursor = state.cursor();
        if (cursor.totals().done()) {
            return new BackfillPage(0, 0, 0, 0, true, cursor.totals());
        }
        return cursor.sweeping() ? sweep(cursor, pageSize) : copy(cursor, pageSize);
    }

    private BackfillPage copy(MigrationState.Cursor cursor, int pageSize) {
        TableScan.ScanPage page =
                legacy.page(pageSize, cursor.position().map(V1Layout::keyOf).orElse(null));
        hooks.reached(SCANNED);
        Counts counts = new Counts();
        for (List<TableScan.Item> group : groups(page.items())) {
            converge(group.stream().map(Pending::new).toList(), counts);
            hooks.reached(GROUP_COPIED);
        }
        // a Scan's last evaluated key is the table's key: the hash attribute
        Optional<String> next = page.next()
                .map(key -> Objects.requireNonNull(key.get(V1Layout.HASH)).s());
        MigrationState.Cursor to = new MigrationState.Cursor(
                next,
                next.isEmpty(),
                Optional.empty(),
                cursor.totals().plus(page.scanned(), counts.copied, counts.alreadyEqual, counts.reloaded, false),
                cursor.revision() + 1);
        state.advance(cursor, to);
        return new BackfillPage(
                page.scanned(), counts.copied, counts.alreadyEqual, counts.reloaded, false, to.totals());
    }

    /**
     * One page of the v2 table: the copies whose legacy item is absent are removed, each only
     * while the legacy item is still absent and the copy still holds what the Scan read.
     */
    private BackfillPage sweep(MigrationState.Cursor cursor, int pageSize) {
        TableScan.ScanPage page = v2.page(pageSize, cursor.sweepFrom().orElse(null));
        hooks.reached(SWEEP_SCANNED);
        Map<MetaKey, MetaValue> inLegacy = page.items().isEmpty()
                ? Map.of()
                : legacyReads.read(
                        page.items().stream().map(TableScan.Item::key).toList());
        List<TableScan.Item> orphans = page.items().stream()
                .filter(item -> !inLegacy.containsKey(item.key()))
                .toList();
        for (List<TableScan.Item> group : groups(orphans)) {
            List<TableScan.Item> pending = group;
            for (int round = 0; round < MAX_ROUNDS && !pending.isEmpty(); round++) {
                pending = removeOnce(pending);
            }
            if (!pending.isEmpty()) {
                throw new StoreUnavailableException(
                        pending.size() + " v2 copies, such as '"
                                + pending.get(0).key()
                                + "', kept changing while the backfill removed them; the cursor did not move: run the backfill again");
            }
            hooks.reached(GROUP_COPIED);
        }
        boolean done = page.next().isEmpty();
        MigrationState.Cursor to = new MigrationState.Cursor(
                Optional.empty(), true, page.next(), cursor.totals().plus(0, 0, 0, 0, done), cursor.revision() + 1);
        state.advance(cursor, to);
        // the totals count legacy items (the progress is measured against the legacy table's size)
        return new BackfillPage(0, 0, 0, 0, done, to.totals());
    }

    /** One transaction removing {@code pending}; answers the copies to send again. */
    private List<TableScan.Item> removeOnce(List<TableScan.Item> pending) {
        List<TransactWriteItem> actions = new ArrayList<>(2 * pending.size() + 1);
        for (TableScan.Item item : pending) {
            actions.add(TransactActions.check(
                    legacyTable, V1Layout.INSTANCE.keyOf(item.key()), WriteCondition.absent(V1Layout.INSTANCE)));
            actions.add(TransactWriteItem.builder()
                    .delete(Delete.builder()
                            .tableName(table)
                            .key(layout.keyOf(item.key()))
                            .conditionExpression("#v = :v")
                            .expressionAttributeNames(Map.of("#v", ItemLayout.VALUE))
                            .expressionAttributeValues(Map.of(":v", V2Layout.b(item.value())))
                            .build())
                    .build());
        }
        actions.add(noMarker());
        String what = "backfill's removal of " + pending.size() + " v2 copies from '"
                + pending.get(0).key() + "'";
        List<CancellationReason> reasons = send(what, actions);
        if (reasons == null) {
            return List.of();
        }
        List<TableScan.Item> next = new ArrayList<>();
        for (int i = 0; i < pending.size(); i++) {
            if (!TransactActions.failed(reasons.get(2 * i)) && !TransactActions.failed(reasons.get(2 * i + 1))) {
                next.add(pending.get(i)); // held back by the others
            } // else the legacy item is back (a dual write, which wrote the v2 copy too) or the copy moved: leave it
        }
        return next;
    }

    private TransactWriteItem noMarker() {
        return TransactActions.check(
                table, MigrationRecords.v2Key(MigrationRecords.COMPLETE), WriteCondition.absent(layout));
    }

    /**
     * Sends one backfill transaction: null when it applied, else the cancellation's reasons. When
     * it may or may not have applied, every reason is "None": the caller sends every item again,
     * and a copy or removal that did apply then fails its condition and is read as converged.
     *
     * @throws StoreUnavailableException if the migration was finalized meanwhile (the marker check failed)
     */
    private @Nullable List<CancellationReason> send(String what, List<TransactWriteItem> actions) {
        String token = UUID.randomUUID().toString();
        AttemptLog log = new AttemptLog();
        try {
            client.transactWriteItems(r -> r.transactItems(actions)
                    .clientRequestToken(token)
                    .overrideConfiguration(log.attachToTransaction(client, state.ticker())));
            return null;
        } catch (TransactionCanceledException e) {
            if (log.earlierAttemptMayHaveApplied(e)) {
                return sendAllAgain(actions); // this call's own write may be what failed the conditions
            }
            List<CancellationReason> reasons = TransactActions.conditionFailures(what, actions.size(), e);
            if (TransactActions.failed(reasons.get(actions.size() - 1))) {
                throw new StoreUnavailableException(
                        what + " found the migration finalized meanwhile (another process"
                                + " backfilled and finalized); nothing was written: run the backfill again (it answers done)",
                        e);
            }
            return reasons;
        } catch (SdkException e) {
            MetaStoreException failure = Failures.onWrite(what, e, log, table);
            if (failure instanceof OutcomeUnknownException) {
                return sendAllAgain(actions);
            }
            throw failure;
        }
    }

    private static List<CancellationReason> sendAllAgain(List<TransactWriteItem> actions) {
        return java.util.Collections.nCopies(
                actions.size(),
                CancellationReason.builder().code(TransactActions.NONE).build());
    }

    private static List<List<TableScan.Item>> groups(List<TableScan.Item> items) {
        List<List<TableScan.Item>> groups = new ArrayList<>();
        List<TableScan.Item> group = new ArrayList<>();
        long bytes = 0;
        for (TableScan.Item item : items) {
            long size = (long) item.key().utf8Length() + item.value().size();
            if (!group.isEmpty() && (group.size() == GROUP_KEYS || bytes + size > GROUP_BYTES)) {
                groups.add(group);
                group = new ArrayList<>();
                bytes = 0;
            }
            group.add(item);
            bytes += size;
        }
        if (!group.isEmpty()) {
            groups.add(group);
        }
        return groups;
    }

    private void converge(List<Pending> group, Counts counts) {
        List<Pending> pending = group;
        for (int round = 0; round < MAX_ROUNDS && !pending.isEmpty(); round++) {
            pending = copyOnce(pending, counts);
        }
        if (!pending.isEmpty()) {
            throw new StoreUnavailableException(pending.size() + " legacy item(s), such as '"
                    + pending.get(0).key()
                    + "', kept changing while the backfill copied them (" + MAX_ROUNDS + " rounds); the cursor did not"
                    + " move, so the page is replayed: run the backfill again");
        }
    }

    /** One transaction for {@code pending}; answers the items still to copy. */
    private List<Pending> copyOnce(List<Pending> pending, Counts counts) {
        List<TransactWriteItem> actions = new ArrayList<>(2 * pending.size() + 1);
        for (Pending item : pending) {
            actions.add(TransactActions.check(
                    legacyTable,
                    V1Layout.INSTANCE.keyOf(item.key()),
                    "#v = :v",
                    Map.of("#v", ItemLayout.VALUE),
                    Map.of(":v", V2Layout.b(item.value()))));
            WriteCondition v2Was =
                    item.v2Seen() == null ? WriteCondition.absent(layout) : WriteCondition.holds(item.v2Seen(), layout);
            actions.add(TransactWriteItem.builder()
                    .put(Put.builder()
                            .tableName(table)
                            .item(layout.itemOf(item.key(), item.value()))
                            .conditionExpression(v2Was.expression())
                            .expressionAttributeNames(v2Was.names())
                            .expressionAttributeValues(v2Was.values())
                            .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
                            .build())
                    .build());
        }
        actions.add(noMarker());
        String what = "backfill of " + pending.size() + " item(s) from '"
                + pending.get(0).key() + "'";
        List<CancellationReason> reasons = send(what, actions);
        if (reasons == null) {
            counts.copied += pending.size();
            return List.of();
        }
        return afterCancellation(pending, reasons, counts);
    }

    private List<Pending> afterCancellation(List<Pending> pending, List<CancellationReason> reasons, Counts counts) {
        List<Pending> next = new ArrayList<>();
        for (int i = 0; i < pending.size(); i++) {
            Pending item = pending.get(i);
            CancellationReason legacyCheck = reasons.get(2 * i);
            CancellationReason put = reasons.get(2 * i + 1);
            if (TransactActions.failed(legacyCheck)) {
                counts.reloaded++;
                legacy.read(item.key()).ifPresent(now -> next.add(new Pending(item.key(), now, null)));
                // vanished: nothing to copy; a v2 copy left behind is removed by the sweep
            } else if (TransactActions.failed(put)) {
                Map<String, AttributeValue> existing = TransactActions.itemOf(put);
                MetaValue copy = existing == null ? null : layout.valueIn(existing, table);
                if (item.value().equals(copy)) {
                    counts.alreadyEqual++;
                } else {
                    next.add(new Pending(item.key(), item.value(), copy)); // derived data: replace it, on what it holds
                }
            } else {
                next.add(item);
            }
        }
        return next;
    }
}
