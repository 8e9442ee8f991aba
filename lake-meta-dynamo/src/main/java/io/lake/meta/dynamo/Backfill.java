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
import java.util.Optional;
import java.util.UUID;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.CancellationReason;
import software.amazon.awssdk.services.dynamodb.model.Get;
import software.amazon.awssdk.services.dynamodb.model.ItemResponse;
import software.amazon.awssdk.services.dynamodb.model.Put;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.TransactGetItem;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItem;
import software.amazon.awssdk.services.dynamodb.model.TransactionCanceledException;

/**
 * One backfill page: a strongly consistent Scan of at most {@code pageSize} legacy items from the
 * durable cursor, each copied to the v2 table by a conditional create that also checks the legacy
 * item still holds the bytes the Scan read, and the cursor moved only once every item of the page
 * converged.
 *
 * <p>Items are copied in groups of at most {@value #GROUP_KEYS} per {@code TransactWriteItems}
 * ({@code ConditionCheck} legacy {@code v = :read} + {@code Put} v2 {@code attribute_not_exists},
 * per item). A cancellation is read per item:
 * <ul>
 *   <li>the legacy check failed: the item changed or vanished since the Scan (a dual write): it is
 *       read again, strongly consistently, and copied from that read (vanished: nothing to copy);</li>
 *   <li>the v2 create failed with the same bytes: converged (a dual write or a replay got there first);</li>
 *   <li>with other bytes while the legacy item still holds what was read: the copies diverged
 *       ({@link CopiesDivergedException}); never overwritten;</li>
 *   <li>neither: held back by the others, sent again.</li>
 * </ul>
 * So a stale value is never written, and a crash anywhere replays the page safely.
 */
final class Backfill {

    /** Reached after the page's Scan, before anything is copied. */
    static final String SCANNED = "dynamo.backfill.scanned";
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

    Backfill(DynamoDbClient client, String legacyTable, String table, V2Layout layout, MigrationState state, RaceHooks hooks) {
        this.client = client;
        this.legacyTable = legacyTable;
        this.table = table;
        this.layout = layout;
        this.state = state;
        this.hooks = hooks;
        this.legacy = TableScan.ofLegacy(client, legacyTable);
        this.v2 = TableScan.ofV2(client, table, layout);
    }

    /** Counts of one page. */
    private static final class Counts {
        long copied;
        long alreadyEqual;
        long reloaded;
    }

    BackfillPage page(int pageSize) {
        MigrationState.Cursor cursor = state.cursor();
        if (cursor.totals().done()) {
            return new BackfillPage(0, 0, 0, 0, true, cursor.totals());
        }
        TableScan.ScanPage page = legacy.page(pageSize, cursor.position().map(V1Layout::keyOf).orElse(null));
        hooks.reached(SCANNED);
        Counts counts = new Counts();
        for (List<TableScan.Item> group : groups(page.items())) {
            converge(group, counts);
            hooks.reached(GROUP_COPIED);
        }
        boolean done = page.next().isEmpty();
        Optional<String> next = page.next().map(key -> key.get(V1Layout.HASH).s());
        MigrationState.Cursor to = new MigrationState.Cursor(next,
                cursor.totals().plus(page.scanned(), counts.copied, counts.alreadyEqual, counts.reloaded, done),
                cursor.revision() + 1);
        state.advance(cursor, to);
        return new BackfillPage(page.scanned(), counts.copied, counts.alreadyEqual, counts.reloaded, done, to.totals());
    }

    private static List<List<TableScan.Item>> groups(List<TableScan.Item> items) {
        List<List<TableScan.Item>> groups = new ArrayList<>();
        List<TableScan.Item> group = new ArrayList<>();
        long bytes = 0;
        for (TableScan.Item item : items) {
            long size = item.key().utf8Length() + item.value().size();
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

    private void converge(List<TableScan.Item> group, Counts counts) {
        List<TableScan.Item> pending = group;
        for (int round = 0; round < MAX_ROUNDS && !pending.isEmpty(); round++) {
            pending = copyOnce(pending, counts);
        }
        if (!pending.isEmpty()) {
            throw new StoreUnavailableException(pending.size() + " legacy item(s), such as '" + pending.get(0).key()
                    + "', kept changing while the backfill copied them (" + MAX_ROUNDS + " rounds); the cursor did not"
                    + " move, so the page is replayed: run the backfill again");
        }
    }

    /** One transaction for {@code pending}; answers the items still to copy. */
    private List<TableScan.Item> copyOnce(List<TableScan.Item> pending, Counts counts) {
        List<TransactWriteItem> actions = new ArrayList<>(2 * pending.size());
        for (TableScan.Item item : pending) {
            actions.add(TransactActions.check(legacyTable, V1Layout.INSTANCE.keyOf(item.key()), "#v = :v",
                    Map.of("#v", ItemLayout.VALUE), Map.of(":v", V2Layout.b(item.value()))));
            actions.add(TransactWriteItem.builder().put(Put.builder().tableName(table).item(layout.itemOf(item.key(), item.value()))
                    .conditionExpression("attribute_not_exists(#k)").expressionAttributeNames(Map.of("#k", V2Layout.RANGE))
                    .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD).build()).build());
        }
        String what = "backfill of " + pending.size() + " item(s) from '" + pending.get(0).key() + "'";
        String token = UUID.randomUUID().toString();
        AttemptLog log = new AttemptLog();
        try {
            client.transactWriteItems(r -> r.transactItems(actions).clientRequestToken(token).overrideConfiguration(log.attachToTransaction(client, state.ticker())));
            counts.copied += pending.size();
            return List.of();
        } catch (TransactionCanceledException e) {
            if (log.earlierAttemptMayHaveApplied(e)) {
                return pending; // this call's own copy may be what failed the conditions: read them afresh
            }
            return afterCancellation(pending, TransactActions.conditionFailures(what, actions.size(), e), counts);
        } catch (SdkException e) {
            MetaStoreException failure = Failures.onWrite(what, e, log, table);
            if (failure instanceof OutcomeUnknownException) {
                return pending; // a copy is idempotent: the next round finds it applied, or applies it
            }
            throw failure;
        }
    }

    private List<TableScan.Item> afterCancellation(List<TableScan.Item> pending, List<CancellationReason> reasons, Counts counts) {
        List<TableScan.Item> next = new ArrayList<>();
        List<MetaKey> diverged = new ArrayList<>();
        for (int i = 0; i < pending.size(); i++) {
            TableScan.Item item = pending.get(i);
            CancellationReason legacyCheck = reasons.get(2 * i);
            CancellationReason create = reasons.get(2 * i + 1);
            if (TransactActions.failed(legacyCheck)) {
                counts.reloaded++;
                reload(item.key()).ifPresent(next::add);
            } else if (TransactActions.failed(create)) {
                Map<String, AttributeValue> existing = TransactActions.itemOf(create);
                MetaValue copy = existing == null ? null : layout.valueIn(existing, table);
                if (item.value().equals(copy)) {
                    counts.alreadyEqual++;
                } else {
                    Optional<MetaValue> now = legacy.read(item.key());
                    if (now.isPresent() && now.get().equals(item.value())) {
                        diverged.add(item.key());
                    } else {
                        counts.reloaded++;
                        reload(item.key()).ifPresent(next::add);
                    }
                }
            } else {
                next.add(item);
            }
        }
        if (!diverged.isEmpty()) {
            throw new CopiesDivergedException("the backfill found " + diverged.size() + " key(s) whose v2 copy in table '"
                    + table + "' holds other bytes than the legacy copy in table '" + legacyTable + "', such as '"
                    + diverged.get(0) + "': something wrote one table without the other; nothing was overwritten and"
                    + " the cursor did not move. Repair the copy that is wrong (see the DynamoDB migration guide), then"
                    + " run the backfill again", diverged);
        }
        return next;
    }

    /**
     * The legacy item read again, strongly consistently, to copy it as it is now; empty when it
     * was deleted meanwhile (then the v2 copy must be absent too: a dual delete removes both).
     * Absent: both copies are read again at one instant ({@code TransactGetItems}) before the v2
     * copy is called a divergence — read one after the other, a dual create in between would look
     * like one.
     */
    private Optional<TableScan.Item> reload(MetaKey key) {
        Optional<MetaValue> now = legacy.read(key);
        if (now.isPresent()) {
            return Optional.of(new TableScan.Item(key, now.get()));
        }
        List<Optional<MetaValue>> both = bothCopies(key);
        if (both.get(0).isPresent()) {
            return Optional.of(new TableScan.Item(key, both.get(0).get())); // created again meanwhile: copy that
        }
        if (both.get(1).isPresent()) {
            throw new CopiesDivergedException("the backfill found '" + key + "' absent from the legacy table '" + legacyTable
                    + "' but present in the v2 table '" + table + "': something wrote one table without the other;"
                    + " nothing was overwritten and the cursor did not move", List.of(key));
        }
        return Optional.empty();
    }

    /** The legacy and the v2 copy of {@code key}, read in one transaction. */
    private List<Optional<MetaValue>> bothCopies(MetaKey key) {
        String what = "TransactGetItems of both copies of '" + key + "'";
        try {
            List<ItemResponse> items = client.transactGetItems(r -> r.transactItems(
                    TransactGetItem.builder().get(Get.builder().tableName(legacyTable).key(V1Layout.INSTANCE.keyOf(key)).build()).build(),
                    TransactGetItem.builder().get(Get.builder().tableName(table).key(layout.keyOf(key)).build()).build()))
                    .responses();
            return List.of(valueOf(items.get(0), V1Layout.INSTANCE, legacyTable), valueOf(items.get(1), layout, table));
        } catch (TransactionCanceledException e) {
            throw new StoreUnavailableException(what + " was cancelled by a concurrent write (" + Failures.describe(e)
                    + "); the cursor did not move, so the page is replayed: run the backfill again", e);
        } catch (SdkException e) {
            throw Failures.onRead(what, e, table);
        }
    }

    private static Optional<MetaValue> valueOf(ItemResponse response, ItemLayout layout, String table) {
        return response != null && response.hasItem() && !response.item().isEmpty()
                ? Optional.of(layout.valueIn(response.item(), table)) : Optional.empty();
    }
}
