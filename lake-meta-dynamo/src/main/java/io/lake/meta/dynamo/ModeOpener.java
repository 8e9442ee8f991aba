package io.lake.meta.dynamo;

import io.lake.meta.MetaStore;
import io.lake.meta.Ticker;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Opens the store of one {@link DynamoLayoutMode}: checks the tables the mode uses, reads the
 * migration's completion marker, and refuses what would fork the data.
 *
 * <ul>
 *   <li>{@code V1}: refused once the legacy table holds the completion marker (after
 *       finalization a writer that changes only the legacy table would make the copies differ);</li>
 *   <li>{@code DUAL}: the read authority is the v2 table when the marker exists, the legacy table
 *       otherwise; the two tables' copies of the marker must agree;</li>
 *   <li>{@code V2}: the v2 table alone, as without a migration; a migration's target only once
 *       its rollback horizon was declared passed.</li>
 * </ul>
 */
final class ModeOpener {

    private final DynamoDbClient client;
    private final boolean createIfMissing;
    private final Duration activeTimeout;
    private final Duration pollInterval;
    private final Ticker ticker;

    ModeOpener(
            DynamoDbClient client,
            boolean createIfMissing,
            Duration activeTimeout,
            Duration pollInterval,
            Ticker ticker) {
        this.ticker = ticker;
        this.client = client;
        this.createIfMissing = createIfMissing;
        this.activeTimeout = activeTimeout;
        this.pollInterval = pollInterval;
    }

    MetaStore openV1(String legacyTable, @Nullable String table) {
        if (table != null && hasCompletionMarker(table)) {
            throw finalizedRefusal(
                    legacyTable); // before the legacy table is opened: it may have been deleted after the horizon
        }
        if (new LegacyTableSetup(client, legacyTable).open(createIfMissing, activeTimeout)) {
            throw finalizedRefusal(legacyTable);
        }
        return new DynamoTableStore(client, legacyTable, V1Layout.INSTANCE, pollInterval, ticker);
    }

    private static ModeRefusedException finalizedRefusal(String legacyTable) {
        return new ModeRefusedException(
                DynamoLayoutMode.V1,
                ModeRefusedException.Reason.MIGRATION_FINALIZED,
                "legacy table '" + legacyTable + "' was migrated to the v2 layout and the migration is finalized"
                        + " (the completion marker exists), so a store in mode V1 will not open it: a writer that changes only the"
                        + " legacy table after finalization would make the two copies differ. Open the store in mode DUAL (it"
                        + " reads the v2 table and keeps both copies) or V2; to return to V1, roll the migration back first"
                        + " (see the DynamoDB migration guide)");
    }

    /** Whether the v2 table exists and holds the completion marker (one consistent GetItem). */
    private boolean hasCompletionMarker(String table) {
        try {
            var response = client.getItem(r -> r.tableName(table)
                    .key(MigrationRecords.v2Key(MigrationRecords.COMPLETE))
                    .consistentRead(true));
            return response.hasItem() && !response.item().isEmpty();
        } catch (software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException e) {
            return false; // no v2 table: never migrated to
        } catch (SdkException e) {
            throw Failures.onRead("reading the migration's completion marker", e, table);
        }
    }

    MetaStore openDual(String legacyTable, String table, @Nullable Integer shardCount) {
        V2Layout layout = new TableSetup(client, table).open(shardCount, createIfMissing, activeTimeout);
        List<Map<String, AttributeValue>> records = migrationRecords(table);
        Map<String, AttributeValue> markerItem = record(records, MigrationRecords.COMPLETE);
        if (markerItem != null && MigrationState.completionOf(markerItem).rollbackHorizonPassed()) {
            // The legacy table is no longer kept and may be deleted: neither read nor (re-)created.
            return new DynamoDualStore(
                    client, legacyTable, table, layout, MigrationState.markerSeenIn(markerItem), pollInterval, ticker);
        }
        boolean legacyMarker = new LegacyTableSetup(client, legacyTable).open(createIfMissing, activeTimeout);
        boolean marker = markerItem != null;
        if (marker != legacyMarker) {
            throw new DynamoStoreException("the migration's completion marker is " + (marker ? "present" : "absent")
                    + " in the v2 table '" + table + "' but " + (legacyMarker ? "present" : "absent")
                    + " in the legacy table '" + legacyTable + "': they are written and removed together, so one was"
                    + " changed by hand. Check both tables (lake-meta dynamo-migrate status) before opening a store");
        }
        if (record(records, MigrationRecords.STARTED) == null) {
            // from now on mode V2 refuses the v2 table, before any backfill page
            new MigrationState(client, legacyTable, table, ticker).markStarted();
        }
        return new DynamoDualStore(
                client,
                legacyTable,
                table,
                layout,
                markerItem != null ? MigrationState.markerSeenIn(markerItem) : null,
                pollInterval,
                ticker);
    }

    /**
     * A v2 table that is (or was) a migration's target opens in mode V2 only once the rollback
     * horizon was declared passed: before, the legacy table is still a copy every write must keep
     * (or, before finalization, the authority), and a V2 store would write around it.
     */
    MetaStore openV2(String table, @Nullable Integer shardCount) {
        V2Layout layout = new TableSetup(client, table).open(shardCount, createIfMissing, activeTimeout);
        List<Map<String, AttributeValue>> records = migrationRecords(table);
        if (!records.isEmpty()) {
            Optional<MigrationStatus.Completion> completion = Optional.ofNullable(
                            record(records, MigrationRecords.COMPLETE))
                    .map(MigrationState::completionOf);
            if (completion.isEmpty()) {
                throw new ModeRefusedException(
                        DynamoLayoutMode.V2,
                        ModeRefusedException.Reason.MIGRATION_NOT_FINALIZED,
                        "DynamoDB table '" + table + "' is the target of a migration from a legacy table that is not"
                                + " finalized (or was rolled back), so a store in mode V2 will not open it: the legacy table is still the authority. Open the store in mode DUAL (see the DynamoDB migration guide)");
            }
            if (!completion.get().rollbackHorizonPassed()) {
                throw new ModeRefusedException(
                        DynamoLayoutMode.V2,
                        ModeRefusedException.Reason.ROLLBACK_HORIZON_NOT_PASSED,
                        "DynamoDB table '" + table + "' is the target of a finalized migration whose rollback horizon"
                                + " was not declared passed, so a store in mode V2 will not open it: until then every write keeps the legacy copy too. Once every store runs in mode DUAL with the v2 authority,"
                                + " declare it (lake-meta dynamo-migrate declare-horizon), then open in mode V2");
            }
        }
        return new DynamoTableStore(client, table, layout, pollInterval, ticker);
    }

    /** The migration's records in a v2 table (one consistent Query; none on a table never migrated to). */
    private List<Map<String, AttributeValue>> migrationRecords(String table) {
        try {
            return client.query(r -> r.tableName(table)
                            .consistentRead(true)
                            .keyConditionExpression("#h = :h")
                            .expressionAttributeNames(Map.of("#h", V2Layout.HASH))
                            .expressionAttributeValues(Map.of(":h", AttributeValue.fromS(MigrationRecords.V2_HASH))))
                    .items();
        } catch (SdkException e) {
            throw Failures.onRead("reading the migration's records", e, table);
        }
    }

    /** The record named {@code sortKey} among {@code records}, or null. */
    private static @Nullable Map<String, AttributeValue> record(
            List<Map<String, AttributeValue>> records, String sortKey) {
        return records.stream()
                .filter(r -> r.get(V2Layout.RANGE) != null
                        && sortKey.equals(r.get(V2Layout.RANGE).s()))
                .findFirst()
                .orElse(null);
    }
}
