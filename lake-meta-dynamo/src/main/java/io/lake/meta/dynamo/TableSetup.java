package io.lake.meta.dynamo;

import io.lake.meta.InvalidArgumentException;
import io.lake.meta.MetaStoreException;
import io.lake.meta.OutcomeUnknownException;
import io.lake.meta.StoreUnavailableException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.ReturnValuesOnConditionCheckFailure;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;

/**
 * Opens a v2 table: makes sure it exists with the v2 key schema ({@link TableReady}) and reads
 * the layout record that fixes the shard count, writing it only on an empty table (a table that
 * holds items but lost its record is refused, see {@link MissingLayoutRecord}).
 */
final class TableSetup {

    /** How many items a table without a layout record is sampled for. */
    static final int ITEMS_SAMPLED = 20;

    private final DynamoDbClient client;
    private final String table;

    TableSetup(DynamoDbClient client, String table) {
        this.client = client;
        this.table = table;
    }

    /**
     * @param configuredShards the builder's shard count, or null to adopt the table's (16 on a new table)
     */
    V2Layout open(@Nullable Integer configuredShards, boolean createIfMissing, Duration activeTimeout) {
        new TableReady(client, table, TableReady.V2_SCHEMA, "v2").ensure(createIfMissing, activeTimeout);
        return new V2Layout(layoutShards(configuredShards));
    }

    private int layoutShards(@Nullable Integer configured) {
        Map<String, AttributeValue> record = readLayoutRecord();
        if (record == null) {
            record = layoutRecordOrRefuseItems();
        }
        if (record == null) {
            int shards = configured == null ? V2Layout.DEFAULT_SHARDS : configured;
            record = writeLayoutRecord(shards);
            if (record == null) {
                return shards;
            }
        }
        int recorded = parseShards(record);
        if (configured != null && configured != recorded) {
            throw new InvalidArgumentException("DynamoDB table '" + table + "' was laid out with " + recorded
                    + " shards, but the store was configured with shardCount(" + configured + "): the shard count is"
                    + " fixed when a table is first used; configure shardCount(" + recorded
                    + ") or leave it unset to adopt the table's, or use a new table");
        }
        return recorded;
    }

    private @Nullable Map<String, AttributeValue> readLayoutRecord() {
        try {
            var response = client.getItem(
                    r -> r.tableName(table).key(V2Layout.layoutRecordKey()).consistentRead(true));
            return response.hasItem() && !response.item().isEmpty() ? response.item() : null;
        } catch (SdkException e) {
            throw Failures.onRead("reading the layout record", e, table);
        }
    }

    /**
     * Without a layout record a table must be empty: items in it were placed with a shard count
     * that is no longer recorded. One consistent Scan of at most {@link #ITEMS_SAMPLED} items
     * decides; a record that another opener wrote meanwhile (seen by the Scan or read again before
     * refusing) is returned. Null: the table is empty.
     */
    private @Nullable Map<String, AttributeValue> layoutRecordOrRefuseItems() {
        ScanResponse page;
        try {
            page = client.scan(r -> r.tableName(table).limit(ITEMS_SAMPLED).consistentRead(true));
        } catch (SdkException e) {
            throw Failures.onRead("checking that a table without a layout record is empty", e, table);
        }
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        for (Map<String, AttributeValue> item : page.items()) {
            if (isLayoutRecord(item)) {
                return item;
            }
            items.add(item);
        }
        boolean more = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty();
        if (items.isEmpty() && !more) {
            return null;
        }
        // Another store may have laid the table out and written since the record was read.
        Map<String, AttributeValue> written = readLayoutRecord();
        if (written != null) {
            return written;
        }
        throw MissingLayoutRecord.refusal(table, items, more);
    }

    private static boolean isLayoutRecord(Map<String, AttributeValue> item) {
        AttributeValue pk = item.get(V2Layout.HASH);
        AttributeValue sk = item.get(V2Layout.RANGE);
        return pk != null && sk != null && V2Layout.LAYOUT_KEY.equals(pk.s()) && V2Layout.LAYOUT_KEY.equals(sk.s());
    }

    /** Writes the record if absent; returns null when written, else the record another opener wrote first. */
    private @Nullable Map<String, AttributeValue> writeLayoutRecord(int shards) {
        AttemptLog log = new AttemptLog();
        try {
            client.putItem(r -> r.tableName(table)
                    .item(V2Layout.layoutRecord(shards))
                    .conditionExpression("attribute_not_exists(#h)")
                    .expressionAttributeNames(Map.of("#h", V2Layout.HASH))
                    .returnValuesOnConditionCheckFailure(ReturnValuesOnConditionCheckFailure.ALL_OLD)
                    .overrideConfiguration(log.attachToSingleItemWrite(client)));
            return null;
        } catch (ConditionalCheckFailedException e) {
            if (e.hasItem() && !e.item().isEmpty()) {
                return e.item();
            }
            Map<String, AttributeValue> record = readLayoutRecord();
            if (record == null) {
                throw new DynamoStoreException(
                        "the layout record of table '" + table + "' changed while opening; open again", e);
            }
            return record;
        } catch (SdkException e) {
            MetaStoreException failure = Failures.onWrite("writing the layout record", e, log, table);
            if (failure instanceof OutcomeUnknownException) {
                Map<String, AttributeValue> record = readLayoutRecord();
                if (record != null) {
                    return record;
                }
                throw new StoreUnavailableException(
                        "writing the layout record of table '" + table
                                + "' got no answer and the record is absent; open the store again",
                        e);
            }
            throw failure;
        }
    }

    private int parseShards(Map<String, AttributeValue> record) {
        AttributeValue format = record.get(V2Layout.LAYOUT_FORMAT_ATTR);
        AttributeValue version = record.get(V2Layout.LAYOUT_VERSION_ATTR);
        AttributeValue shards = record.get(V2Layout.LAYOUT_SHARDS_ATTR);
        if (format == null
                || !V2Layout.LAYOUT_FORMAT.equals(format.s())
                || version == null
                || version.n() == null
                || shards == null
                || shards.n() == null) {
            throw new DynamoStoreException(
                    "DynamoDB table '" + table + "' holds an item at the layout record's key that"
                            + " lake-meta did not write (" + record + "): use another table");
        }
        if (!Integer.toString(V2Layout.VERSION).equals(version.n())) {
            throw new DynamoStoreException("DynamoDB table '" + table + "' holds lake-meta layout version "
                    + version.n() + "; this library reads version " + V2Layout.VERSION
                    + ": use a library version that reads it");
        }
        int n;
        try {
            n = Integer.parseInt(shards.n());
        } catch (NumberFormatException e) {
            n = -1;
        }
        if (n < V2Layout.MIN_SHARDS || n > V2Layout.MAX_SHARDS) {
            throw new DynamoStoreException("DynamoDB table '" + table + "' records " + shards.n() + " shards, outside "
                    + V2Layout.MIN_SHARDS + ".." + V2Layout.MAX_SHARDS + ": the layout record is damaged");
        }
        return n;
    }
}
