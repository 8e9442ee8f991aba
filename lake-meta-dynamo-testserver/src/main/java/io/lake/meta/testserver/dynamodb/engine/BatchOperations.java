package io.lake.meta.testserver.dynamodb.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lake.meta.testserver.dynamodb.expr.Placeholders;
import io.lake.meta.testserver.dynamodb.expr.ProjectionExpression;
import io.lake.meta.testserver.dynamodb.model.AttrJson;
import io.lake.meta.testserver.dynamodb.model.AttrValue;
import io.lake.meta.testserver.dynamodb.model.ItemSize;
import io.lake.meta.testserver.dynamodb.protocol.Errors;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * BatchGetItem (at most 100 keys) and BatchWriteItem (at most 25 requests). This emulator
 * processes every request, so {@code UnprocessedKeys} / {@code UnprocessedItems} are always empty;
 * each item of a batch write is atomic on its own, the batch as a whole is not.
 */
final class BatchOperations {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private final Database db;

    BatchOperations(Database db) {
        this.db = db;
    }

    private static ObjectNode requestItems(ObjectNode body) {
        ObjectNode requestItems = Requests.object(body, "RequestItems");
        if (requestItems == null) {
            throw Errors.validation("1 validation error detected: Value null at 'requestItems' failed to satisfy "
                    + "constraint: Member must not be null");
        }
        if (requestItems.size() == 0) {
            throw Errors.validation("1 validation error detected: Value '{}' at 'requestItems' failed to satisfy "
                    + "constraint: Member must have length greater than or equal to 1");
        }
        return requestItems;
    }

    ObjectNode batchGetItem(ObjectNode body) {
        Requests.onlyMembers("BatchGetItem", body, Set.of("RequestItems", "ReturnConsumedCapacity"));
        ObjectNode requestItems = requestItems(body);
        String capacityMode = Requests.returnConsumedCapacity(body);
        record TableRequest(
                String name,
                List<Map<String, AttrValue>> keys,
                @Nullable ProjectionExpression projection,
                boolean consistent) {}
        List<TableRequest> requests = new ArrayList<>();
        int total = 0;
        for (Map.Entry<String, JsonNode> e : requestItems.properties()) {
            JsonNode spec = e.getValue();
            Requests.onlyMembers(
                    "BatchGetItem RequestItems",
                    spec,
                    Set.of(
                            "Keys",
                            "ProjectionExpression",
                            "ExpressionAttributeNames",
                            "ConsistentRead",
                            "AttributesToGet"));
            if (Requests.member(spec, "AttributesToGet") != null) {
                throw Errors.unsupported("legacy parameter AttributesToGet of BatchGetItem (use expressions)");
            }
            List<JsonNode> keyNodes = Requests.list(spec, "Keys");
            if (keyNodes == null || keyNodes.isEmpty()) {
                throw Errors.validation("1 validation error detected: Value '" + (keyNodes == null ? "null" : "[]")
                        + "' at 'requestItems." + e.getKey() + ".member.keys' failed to satisfy constraint: "
                        + "Member must have length greater than or equal to 1");
            }
            List<Map<String, AttrValue>> keys = new ArrayList<>();
            for (JsonNode k : keyNodes) {
                keys.add(AttrJson.readItem(k));
            }
            total += keys.size();
            String projectionSource = Requests.string(spec, "ProjectionExpression");
            Placeholders placeholders = Placeholders.read(
                    Requests.member(spec, "ExpressionAttributeNames"), null, projectionSource != null, null);
            ProjectionExpression projection =
                    projectionSource == null ? null : ProjectionExpression.parse(projectionSource, placeholders);
            placeholders.checkAllUsed();
            requests.add(new TableRequest(
                    e.getKey(), keys, projection, Boolean.TRUE.equals(Requests.bool(spec, "ConsistentRead"))));
        }
        if (total > 100) {
            throw Errors.validation("Too many items requested for the BatchGetItem call");
        }
        ObjectNode response = JSON.objectNode();
        ObjectNode responses = response.putObject("Responses");
        Map<String, Double> capacity = new LinkedHashMap<>();
        List<List<PrimaryKey>> allKeys = new ArrayList<>();
        for (TableRequest r : requests) {
            Table table = db.table(r.name());
            List<PrimaryKey> pks = new ArrayList<>();
            Set<PrimaryKey> seen = new HashSet<>();
            for (Map<String, AttrValue> key : r.keys()) {
                PrimaryKey pk = table.schema.fromKey(key);
                if (!seen.add(pk)) {
                    throw Errors.validation("Provided list of item keys contains duplicates");
                }
                pks.add(pk);
            }
            allKeys.add(pks);
        }
        for (int i = 0; i < requests.size(); i++) {
            TableRequest r = requests.get(i);
            Table table = db.table(r.name());
            ArrayNode out = responses.putArray(r.name());
            double units = 0;
            for (PrimaryKey pk : allKeys.get(i)) {
                Map<String, AttrValue> item = table.get(pk);
                units += Capacity.read(item == null ? 0 : ItemSize.of(item), r.consistent());
                if (item != null) {
                    db.stats.evaluated(r.name(), 1);
                    db.stats.returned(r.name(), 1);
                    out.add(AttrJson.write(
                            r.projection() == null ? item : r.projection().apply(item)));
                }
            }
            db.stats.read(r.name(), units);
            capacity.merge(r.name(), units, Double::sum);
        }
        response.putObject("UnprocessedKeys");
        if (!capacityMode.equals("NONE")) {
            ArrayNode consumed = response.putArray("ConsumedCapacity");
            capacity.forEach((t, u) -> consumed.add(Capacity.single(capacityMode, t, u)));
        }
        return response;
    }

    ObjectNode batchWriteItem(ObjectNode body) {
        Requests.onlyMembers(
                "BatchWriteItem",
                body,
                Set.of("RequestItems", "ReturnConsumedCapacity", "ReturnItemCollectionMetrics"));
        ObjectNode requestItems = requestItems(body);
        String capacityMode = Requests.returnConsumedCapacity(body);
        Requests.returnItemCollectionMetrics(body);
        record Write(
                String tableName,
                @Nullable Map<String, AttrValue> item,
                @Nullable Map<String, AttrValue> key) {}
        List<Write> writes = new ArrayList<>();
        for (Map.Entry<String, JsonNode> e : requestItems.properties()) {
            if (!e.getValue().isArray()
                    || e.getValue().size() == 0
                    || e.getValue().size() > 25) {
                throw Errors.validation("1 validation error detected: Value at 'requestItems' failed to satisfy "
                        + "constraint: Map value must satisfy constraint: [Member must have length less than or equal "
                        + "to 25, Member must have length greater than or equal to 1]");
            }
            for (JsonNode request : e.getValue()) {
                ObjectNode put = Requests.object(request, "PutRequest");
                ObjectNode delete = Requests.object(request, "DeleteRequest");
                if ((put == null) == (delete == null)) {
                    throw Errors.validation("Supplied AttributeValue has more than one datatypes set, must contain "
                            + "exactly one of the supported datatypes");
                }
                if (put != null) {
                    writes.add(new Write(e.getKey(), ItemOperations.requiredItem(put, "Item", "item"), null));
                } else {
                    // exactly one of the two is set (checked above)
                    writes.add(new Write(
                            e.getKey(),
                            null,
                            ItemOperations.requiredItem(Objects.requireNonNull(delete), "Key", "key")));
                }
            }
        }
        if (writes.size() > 25) {
            throw Errors.validation("Too many items requested for the BatchWriteItem call");
        }
        List<PrimaryKey> pks = new ArrayList<>();
        Set<List<Object>> seen = new HashSet<>();
        for (Write w : writes) {
            Table table = db.table(w.tableName());
            PrimaryKey pk;
            if (w.item() != null) {
                ItemOperations.checkItemSize(w.item(), "Item size has exceeded the maximum allowed size");
                pk = table.schema.fromItem(w.item());
            } else {
                pk = table.schema.fromKey(w.key());
            }
            if (!seen.add(List.of(w.tableName(), pk))) {
                throw Errors.validation("Provided list of item keys contains duplicates");
            }
            pks.add(pk);
        }
        Map<String, Double> capacity = new LinkedHashMap<>();
        db.commitLock.lock();
        try {
            Set<String> touched = new java.util.LinkedHashSet<>();
            writes.forEach(w -> touched.add(w.tableName()));
            db.writeChecked("BatchWriteItem", touched);
            for (int i = 0; i < writes.size(); i++) {
                Write w = writes.get(i);
                Table table = db.table(w.tableName());
                Map<String, AttrValue> old = w.item() != null
                        ? table.items.put(pks.get(i), ItemOperations.orderedCopy(w.item()))
                        : table.items.remove(pks.get(i));
                long size = Math.max(old == null ? 0 : ItemSize.of(old), w.item() == null ? 0 : ItemSize.of(w.item()));
                capacity.merge(w.tableName(), Capacity.write(size), Double::sum);
                db.stats.evaluated(w.tableName(), 1);
            }
        } finally {
            db.commitLock.unlock();
        }
        capacity.forEach((t, u) -> db.stats.write(t, u));
        ObjectNode response = JSON.objectNode();
        response.putObject("UnprocessedItems");
        if (!capacityMode.equals("NONE")) {
            ArrayNode consumed = response.putArray("ConsumedCapacity");
            capacity.forEach((t, u) -> consumed.add(Capacity.single(capacityMode, t, u)));
        }
        return response;
    }
}
