package io.lake.meta.testserver.dynamodb.engine;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lake.meta.testserver.dynamodb.model.AttrValue;
import io.lake.meta.testserver.dynamodb.model.ItemSize;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentSkipListMap;

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
    final String tableId = UUID.randomUUID().toString();
    final String arn;
    final ConcurrentSkipListMap<PrimaryKey, Map<String, AttrValue>> items = new ConcurrentSkipListMap<>();

    Table(String name, KeySchema schema, boolean payPerRequest, long readCapacity, long writeCapacity,
          Instant created, String region, String account) {
        this.name = name;
        this.schema = schema;
        this.payPerRequest = payPerRequest;
        this.readCapacity = readCapacity;
        this.writeCapacity = writeCapacity;
        this.created = created;
        this.arn = "arn:aws:dynamodb:" + region + ":" + account + ":table/" + name;
    }

    Map<String, AttrValue> get(PrimaryKey key) {
        return items.get(key);
    }

    /** The items of one partition in sort-key order (ascending or descending). */
    List<Map.Entry<PrimaryKey, Map<String, AttrValue>>> partition(AttrValue hash, boolean forward) {
        PrimaryKey start = PrimaryKey.of(hash, null);
        List<Map.Entry<PrimaryKey, Map<String, AttrValue>>> entries = new ArrayList<>();
        NavigableMap<PrimaryKey, Map<String, AttrValue>> tail = items.tailMap(start, true);
        for (Map.Entry<PrimaryKey, Map<String, AttrValue>> e : tail.entrySet()) {
            if (!e.getKey().samePartition(start)) {
                break;
            }
            entries.add(e);
        }
        if (!forward) {
            Collections.reverse(entries);
        }
        return entries;
    }

    ObjectNode describe(String status) {
        JsonNodeFactory json = JsonNodeFactory.instance;
        ObjectNode d = json.objectNode();
        ArrayNode definitions = d.putArray("AttributeDefinitions");
        definitions.addObject().put("AttributeName", schema.hashName()).put("AttributeType", schema.hashType().name());
        if (schema.hasRange()) {
            definitions.addObject().put("AttributeName", schema.rangeName()).put("AttributeType", schema.rangeType().name());
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
