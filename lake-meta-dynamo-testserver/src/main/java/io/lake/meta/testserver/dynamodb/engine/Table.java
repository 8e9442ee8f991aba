package io.lake.meta.testserver.dynamodb.engine;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lake.meta.testserver.dynamodb.model.AttrValue;
import io.lake.meta.testserver.dynamodb.model.ItemSize;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.ConcurrentSkipListMap;
import org.jspecify.annotations.Nullable;

/**
 * One table: its definition and its items. Items are immutable maps held in a concurrent sorted
 * map, so single-item reads need no lock; every write holds the database's commit lock.
 */
final class Table {

    final String name;
    final KeySchema schema;
    final boolean payPerRequest;
    final long readCapacity;
    final long writeCapacity;
    final Instant created;
    /** When the table leaves CREATING; equal to {@link #created} unless a creation delay is configured. */
    final Instant activeAt;

    final String tableId = UUID.randomUUID().toString();
    final String arn;
    final ConcurrentSkipListMap<PrimaryKey, Map<String, AttrValue>> items = new ConcurrentSkipListMap<>();

    Table(
            String name,
            KeySchema schema,
            boolean payPerRequest,
            long readCapacity,
            long writeCapacity,
            Instant created,
            Instant activeAt,
            String region,
            String account) {
        this.name = name;
        this.schema = schema;
        this.payPerRequest = payPerRequest;
        this.readCapacity = readCapacity;
        this.writeCapacity = writeCapacity;
        this.created = created;
        this.activeAt = activeAt;
        this.arn = "arn:aws:dynamodb:" + region + ":" + account + ":table/" + name;
    }

    boolean creating(Instant now) {
        return now.isBefore(activeAt);
    }

    @Nullable
    Map<String, AttrValue> get(PrimaryKey key) {
        return items.get(key);
    }

    /**
     * The items of one partition in sort-key order (descending when not {@code forward}), as a
     * live view: only sort keys within [{@code lower}, {@code upper}] (either may be null for
     * unbounded) and strictly after {@code exclusiveStart} in the walking direction.
     */
    Iterable<Map.Entry<PrimaryKey, Map<String, AttrValue>>> partition(
            AttrValue hash,
            boolean forward,
            @Nullable PrimaryKey exclusiveStart,
            @Nullable AttrValue lower,
            @Nullable AttrValue upper) {
        PrimaryKey from = lower == null ? PrimaryKey.partitionStart(hash) : PrimaryKey.of(hash, lower);
        boolean fromInclusive = true;
        PrimaryKey to = upper == null ? PrimaryKey.partitionEnd(hash) : PrimaryKey.of(hash, upper);
        boolean toInclusive = true;
        if (exclusiveStart != null) {
            if (forward && exclusiveStart.compareTo(from) >= 0) {
                from = exclusiveStart;
                fromInclusive = false;
            } else if (!forward && exclusiveStart.compareTo(to) <= 0) {
                to = exclusiveStart;
                toInclusive = false;
            }
        }
        if (from.compareTo(to) > 0) {
            return java.util.List.of();
        }
        NavigableMap<PrimaryKey, Map<String, AttrValue>> view = items.subMap(from, fromInclusive, to, toInclusive);
        return (forward ? view : view.descendingMap()).entrySet();
    }

    ObjectNode describe(String status) {
        JsonNodeFactory json = JsonNodeFactory.instance;
        ObjectNode d = json.objectNode();
        ArrayNode definitions = d.putArray("AttributeDefinitions");
        definitions
                .addObject()
                .put("AttributeName", schema.hashName())
                .put("AttributeType", schema.hashType().name());
        if (schema.hasRange()) {
            definitions
                    .addObject()
                    .put("AttributeName", schema.rangeName())
                    .put(
                            "AttributeType",
                            Objects.requireNonNull(schema.rangeType()).name());
        }
        d.put("TableName", name);
        ArrayNode keySchema = d.putArray("KeySchema");
        keySchema.addObject().put("AttributeName", schema.hashName()).put("KeyType", "HASH");
        if (schema.hasRange()) {
            keySchema.addObject().put("AttributeName", schema.rangeName()).put("KeyType", "RANGE");
        }
        d.put("TableStatus", status);
        d.put("CreationDateTime", new BigDecimal(created.toEpochMilli()).movePointLeft(3));
        ObjectNode throughput = d.putObject("ProvisionedThroughput");
        throughput.put("NumberOfDecreasesToday", 0);
        throughput.put("ReadCapacityUnits", readCapacity);
        throughput.put("WriteCapacityUnits", writeCapacity);
        long size = 0;
        long count = 0;
        for (Map<String, AttrValue> item : items.values()) {
            size += ItemSize.of(item);
            count++;
        }
        d.put("TableSizeBytes", size);
        d.put("ItemCount", count);
        d.put("TableArn", arn);
        d.put("TableId", tableId);
        if (payPerRequest) {
            d.putObject("BillingModeSummary")
                    .put("BillingMode", "PAY_PER_REQUEST")
                    .put("LastUpdateToPayPerRequestDateTime", new BigDecimal(created.toEpochMilli()).movePointLeft(3));
        }
        d.put("DeletionProtectionEnabled", false);
        return d;
    }
}
