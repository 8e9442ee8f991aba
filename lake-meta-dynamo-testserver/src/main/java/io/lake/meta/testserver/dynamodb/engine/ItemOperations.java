package io.lake.meta.testserver.dynamodb.engine;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lake.meta.testserver.dynamodb.expr.ConditionExpression;
import io.lake.meta.testserver.dynamodb.expr.Placeholders;
import io.lake.meta.testserver.dynamodb.expr.ProjectionExpression;
import io.lake.meta.testserver.dynamodb.expr.UpdateExpression;
import io.lake.meta.testserver.dynamodb.model.AttrJson;
import io.lake.meta.testserver.dynamodb.model.AttrValue;
import io.lake.meta.testserver.dynamodb.model.ItemSize;
import io.lake.meta.testserver.dynamodb.model.Nesting;
import io.lake.meta.testserver.dynamodb.protocol.DynamoException;
import io.lake.meta.testserver.dynamodb.protocol.Errors;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.ToDoubleFunction;
import org.jspecify.annotations.Nullable;

/** GetItem, PutItem, DeleteItem, UpdateItem. */
final class ItemOperations {

    static final String[] ALL_RETURN_VALUES = {"NONE", "ALL_OLD", "UPDATED_OLD", "ALL_NEW", "UPDATED_NEW"};

    private static final Set<String> LEGACY =
            Set.of("AttributesToGet", "Expected", "ConditionalOperator", "AttributeUpdates");

    private final Database db;

    ItemOperations(Database db) {
        this.db = db;
    }

    /** Names the legacy (pre-expression) parameters, which this emulator does not implement. */
    static void rejectLegacy(String operation, ObjectNode body) {
        for (String legacy : LEGACY) {
            if (Requests.member(body, legacy) != null) {
                throw Errors.unsupported("legacy parameter " + legacy + " of " + operation + " (use expressions)");
            }
        }
    }

    static Map<String, AttrValue> requiredItem(ObjectNode body, String member, String path) {
        Map<String, AttrValue> item = AttrJson.readItem(Requests.member(body, member));
        if (item == null) {
            throw Errors.validation("1 validation error detected: Value null at '" + path
                    + "' failed to satisfy constraint: Member must not be null");
        }
        return item;
    }

    static String returnValuesOnConditionCheckFailure(ObjectNode body) {
        return Requests.enumValue(
                body,
                "ReturnValuesOnConditionCheckFailure",
                "returnValuesOnConditionCheckFailure",
                "NONE",
                "ALL_OLD",
                "NONE");
    }

    static @Nullable ConditionExpression condition(ObjectNode body, Placeholders placeholders) {
        String source = Requests.string(body, "ConditionExpression");
        return source == null ? null : ConditionExpression.parse(source, "ConditionExpression", placeholders);
    }

    static void checkItemSize(Map<String, AttrValue> item, String message) {
        if (ItemSize.of(item) > ItemSize.MAX_ITEM_BYTES) {
            throw Errors.validation(message);
        }
    }

    ObjectNode getItem(ObjectNode body) {
        Requests.onlyMembers(
                "GetItem",
                body,
                Set.of(
                        "TableName",
                        "Key",
                        "ConsistentRead",
                        "ReturnConsumedCapacity",
                        "ProjectionExpression",
                        "ExpressionAttributeNames",
                        "AttributesToGet"));
        rejectLegacy("GetItem", body);
        String tableName = Requests.tableName(body, 1);
        Map<String, AttrValue> key = requiredItem(body, "Key", "key");
        String capacityMode = Requests.returnConsumedCapacity(body);
        boolean consistent = Boolean.TRUE.equals(Requests.bool(body, "ConsistentRead"));
        String projectionSource = Requests.string(body, "ProjectionExpression");
        Placeholders placeholders = Placeholders.read(
                Requests.member(body, "ExpressionAttributeNames"), null, projectionSource != null, null);
        ProjectionExpression projection =
                projectionSource == null ? null : ProjectionExpression.parse(projectionSource, placeholders);
        placeholders.checkAllUsed();
        Table table = db.table(tableName);
        PrimaryKey pk = table.schema.fromKey(key);
        Map<String, AttrValue> item = table.get(pk);
        double units = Capacity.read(item == null ? 0 : ItemSize.of(item), consistent);
        db.stats.read(tableName, units);
        ObjectNode response = JsonNodeFactory.instance.objectNode();
        if (item != null) {
            db.stats.evaluated(tableName, 1);
            db.stats.returned(tableName, 1);
            response.set("Item", AttrJson.write(projection == null ? item : projection.apply(item)));
        }
        putIfNotNull(response, "ConsumedCapacity", Capacity.single(capacityMode, tableName, units));
        return response;
    }

    ObjectNode putItem(ObjectNode body) {
        SingleWrite request;
        try {
            request = readSingleWrite("PutItem", body, "Item", "item");
        } catch (DynamoException e) {
            // PutItem sends the too-deep sentence inside the validation envelope; other surfaces bare
            throw Nesting.TOO_DEEP.equals(e.getMessage()) ? Errors.validation(Nesting.TOO_DEEP_IN_SINGLE_WRITE) : e;
        }
        Map<String, AttrValue> item = request.item();
        checkItemSize(item, "Item size has exceeded the maximum allowed size");
        Table table = db.table(request.tableName());
        PrimaryKey pk = table.schema.fromItem(item);
        Committed done = commitSingle(
                "PutItem",
                request,
                table,
                pk,
                old -> Capacity.write(Math.max(ItemSize.of(item), old == null ? 0 : ItemSize.of(old))),
                () -> table.items.put(pk, orderedCopy(item)));
        db.stats.evaluated(request.tableName(), 1);
        return singleWriteResponse(request, done);
    }

    ObjectNode deleteItem(ObjectNode body) {
        SingleWrite request = readSingleWrite("DeleteItem", body, "Key", "key");
        Table table = db.table(request.tableName());
        PrimaryKey pk = table.schema.fromKey(request.item());
        Committed done = commitSingle(
                "DeleteItem",
                request,
                table,
                pk,
                old -> Capacity.write(old == null ? 0 : ItemSize.of(old)),
                () -> table.items.remove(pk));
        db.stats.evaluated(request.tableName(), done.old() == null ? 0 : 1);
        return singleWriteResponse(request, done);
    }

    /** A parsed PutItem or DeleteItem: {@code item} is the item to put, or the key to delete. */
    private record SingleWrite(
            String tableName,
            Map<String, AttrValue> item,
            String returnValues,
            String capacityMode,
            String onFailure,
            @Nullable ConditionExpression condition) {}

    /** The item a single write found (null when absent) and the write units it was charged. */
    private record Committed(@Nullable Map<String, AttrValue> old, double units) {}

    /** Validates and reads a PutItem or DeleteItem request, in the order the service checks it. */
    private static SingleWrite readSingleWrite(String operation, ObjectNode body, String itemMember, String itemPath) {
        Requests.onlyMembers(
                operation,
                body,
                Set.of(
                        "TableName",
                        itemMember,
                        "ReturnValues",
                        "ReturnConsumedCapacity",
                        "ReturnItemCollectionMetrics",
                        "ConditionExpression",
                        "ExpressionAttributeNames",
                        "ExpressionAttributeValues",
                        "ReturnValuesOnConditionCheckFailure",
                        "Expected",
                        "ConditionalOperator"));
        rejectLegacy(operation, body);
        String tableName = Requests.tableName(body, 1);
        Map<String, AttrValue> item = requiredItem(body, itemMember, itemPath);
        String returnValues = Requests.enumValue(body, "ReturnValues", "returnValues", "NONE", ALL_RETURN_VALUES);
        if (!returnValues.equals("NONE") && !returnValues.equals("ALL_OLD")) {
            throw Errors.validation("ReturnValues can only be ALL_OLD or NONE");
        }
        String capacityMode = Requests.returnConsumedCapacity(body);
        Requests.returnItemCollectionMetrics(body);
        String onFailure = returnValuesOnConditionCheckFailure(body);
        boolean hasCondition = Requests.member(body, "ConditionExpression") != null;
        Placeholders placeholders = Placeholders.read(
                Requests.member(body, "ExpressionAttributeNames"),
                Requests.member(body, "ExpressionAttributeValues"),
                hasCondition,
                hasCondition ? null : "ConditionExpression");
        ConditionExpression condition = condition(body, placeholders);
        placeholders.checkAllUsed();
        return new SingleWrite(tableName, item, returnValues, capacityMode, onFailure, condition);
    }

    /**
     * Under the commit lock: reads the current item, charges the write units {@code units} gives
     * for it, checks the condition against it, then runs {@code write}.
     */
    private Committed commitSingle(
            String operation,
            SingleWrite request,
            Table table,
            PrimaryKey pk,
            ToDoubleFunction<Map<String, AttrValue>> units,
            Runnable write) {
        db.commitLock.lock();
        try {
            Map<String, AttrValue> old = table.get(pk);
            double charged = units.applyAsDouble(old);
            db.stats.write(request.tableName(), charged);
            if (request.condition() != null && !request.condition().matches(old)) {
                throw Errors.conditionalCheckFailed(
                        request.onFailure().equals("ALL_OLD") && old != null ? AttrJson.write(old) : null);
            }
            db.writeChecked(operation, Set.of(request.tableName()));
            write.run();
            return new Committed(old, charged);
        } finally {
            db.commitLock.unlock();
        }
    }

    private static ObjectNode singleWriteResponse(SingleWrite request, Committed done) {
        ObjectNode response = JsonNodeFactory.instance.objectNode();
        if (request.returnValues().equals("ALL_OLD") && done.old() != null) {
            response.set("Attributes", AttrJson.write(done.old()));
        }
        putIfNotNull(
                response,
                "ConsumedCapacity",
                Capacity.single(request.capacityMode(), request.tableName(), done.units()));
        return response;
    }

    ObjectNode updateItem(ObjectNode body) {
        Requests.onlyMembers(
                "UpdateItem",
                body,
                Set.of(
                        "TableName",
                        "Key",
                        "ReturnValues",
                        "ReturnConsumedCapacity",
                        "ReturnItemCollectionMetrics",
                        "UpdateExpression",
                        "ConditionExpression",
                        "ExpressionAttributeNames",
                        "ExpressionAttributeValues",
                        "ReturnValuesOnConditionCheckFailure",
                        "AttributeUpdates",
                        "Expected",
                        "ConditionalOperator"));
        rejectLegacy("UpdateItem", body);
        String tableName = Requests.tableName(body, 1);
        Map<String, AttrValue> key = requiredItem(body, "Key", "key");
        String returnValues = Requests.enumValue(body, "ReturnValues", "returnValues", "NONE", ALL_RETURN_VALUES);
        String capacityMode = Requests.returnConsumedCapacity(body);
        Requests.returnItemCollectionMetrics(body);
        String onFailure = returnValuesOnConditionCheckFailure(body);
        boolean hasCondition = Requests.member(body, "ConditionExpression") != null;
        String updateSource = Requests.string(body, "UpdateExpression");
        boolean any = hasCondition || updateSource != null;
        Placeholders placeholders = Placeholders.read(
                Requests.member(body, "ExpressionAttributeNames"),
                Requests.member(body, "ExpressionAttributeValues"),
                any,
                any ? null : "UpdateExpression and ConditionExpression");
        UpdateExpression update = updateSource == null ? null : UpdateExpression.parse(updateSource, placeholders);
        ConditionExpression condition = condition(body, placeholders);
        placeholders.checkAllUsed();
        Table table = db.table(tableName);
        PrimaryKey pk = table.schema.fromKey(key);
        if (update != null) {
            for (String name : update.topLevelNames()) {
                if (table.schema.isKeyAttribute(name)) {
                    throw Errors.validation("One or more parameter values were invalid: Cannot update attribute " + name
                            + ". This attribute is part of the key");
                }
            }
        }
        Map<String, AttrValue> old;
        Map<String, AttrValue> updated;
        double units;
        db.commitLock.lock();
        try {
            old = table.get(pk);
            if (condition != null && !condition.matches(old)) {
                db.stats.write(tableName, Capacity.write(old == null ? 0 : ItemSize.of(old)));
                throw Errors.conditionalCheckFailed(
                        onFailure.equals("ALL_OLD") && old != null ? AttrJson.write(old) : null);
            }
            updated = applyUpdate(table, key, old, update, Nesting.TOO_DEEP_IN_SINGLE_WRITE);
            units = Capacity.write(Math.max(ItemSize.of(updated), old == null ? 0 : ItemSize.of(old)));
            db.stats.write(tableName, units);
            db.writeChecked("UpdateItem", Set.of(tableName));
            table.items.put(pk, updated);
        } finally {
            db.commitLock.unlock();
        }
        db.stats.evaluated(tableName, 1);
        ObjectNode response = JsonNodeFactory.instance.objectNode();
        Map<String, AttrValue> attributes = null;
        switch (returnValues) {
            case "ALL_OLD":
                attributes = old;
                break;
            case "ALL_NEW":
                attributes = updated;
                break;
            case "UPDATED_OLD":
                attributes = old == null || update == null ? null : update.touched(old);
                break;
            case "UPDATED_NEW":
                attributes = update == null ? null : update.touched(updated);
                break;
            default:
                break;
        }
        if (attributes != null && !attributes.isEmpty()) {
            response.set("Attributes", AttrJson.write(attributes));
        }
        putIfNotNull(response, "ConsumedCapacity", Capacity.single(capacityMode, tableName, units));
        return response;
    }

    /**
     * The item after an update (an upsert: a missing item starts from its key). An item the update
     * would nest too deeply is refused with {@code tooDeepMessage}, whose wording depends on the
     * operation.
     */
    static Map<String, AttrValue> applyUpdate(
            Table table,
            Map<String, AttrValue> key,
            @Nullable Map<String, AttrValue> old,
            @Nullable UpdateExpression update,
            String tooDeepMessage) {
        Map<String, AttrValue> start = old != null ? old : table.schema.keyOf(key);
        Map<String, AttrValue> updated = update == null ? start : update.apply(start);
        if (Nesting.tooDeep(updated)) {
            throw Errors.validation(tooDeepMessage);
        }
        checkItemSize(updated, "Item size to update has exceeded the maximum allowed size");
        return orderedCopy(updated);
    }

    static Map<String, AttrValue> orderedCopy(@Nullable Map<String, AttrValue> item) {
        return java.util.Collections.unmodifiableMap(new LinkedHashMap<>(item));
    }

    static void putIfNotNull(
            ObjectNode response, String member, com.fasterxml.jackson.databind.@Nullable JsonNode value) {
        if (value != null) {
            response.set(member, value);
        }
    }
}
