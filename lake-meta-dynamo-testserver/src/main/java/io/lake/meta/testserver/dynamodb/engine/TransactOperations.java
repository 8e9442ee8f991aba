package io.lake.meta.testserver.dynamodb.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
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
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * TransactWriteItems and TransactGetItems. Checks run in this order: request constraints;
 * per-action members, expressions and placeholders (top-level ValidationException); the 4 MB
 * size; the ClientRequestToken; table existence (top-level ResourceNotFoundException); empty key
 * values (top-level); the same item twice (top-level); then, under the commit lock, each action's
 * schema and update errors (the first one cancels with {@code ValidationError}); then every
 * condition against the state before the transaction; then all writes at once.
 */
final class TransactOperations {

    static final int MAX_ACTIONS = 100;
    static final long MAX_TRANSACTION_BYTES = 4L * 1024 * 1024;

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private final Database db;
    /** Tokens of transactions being processed now: a retry arriving meanwhile is "in progress". */
    private final java.util.concurrent.ConcurrentHashMap<String, Boolean> inFlight =
            new java.util.concurrent.ConcurrentHashMap<>();

    TransactOperations(Database db) {
        this.db = db;
    }

    /** A write action's kind, with its wire name and the members DynamoDB accepts in it. */
    private enum Kind {
        CONDITION_CHECK("ConditionCheck", "Key"),
        PUT("Put", "Item"),
        DELETE("Delete", "Key"),
        UPDATE("Update", "Key", "UpdateExpression");

        final String wireName;
        /** The member holding the key: the whole item for a Put. */
        final String keyMember;

        @SuppressWarnings("ImmutableEnumChecker") // Set.copyOf: unmodifiable
        final Set<String> members;

        Kind(String wireName, String keyMember, String... extraMembers) {
            this.wireName = wireName;
            this.keyMember = keyMember;
            Set<String> all = new HashSet<>(Set.of(
                    keyMember,
                    "TableName",
                    "ConditionExpression",
                    "ExpressionAttributeNames",
                    "ExpressionAttributeValues",
                    "ReturnValuesOnConditionCheckFailure"));
            all.addAll(List.of(extraMembers));
            this.members = Set.copyOf(all);
        }
    }

    private static final class Action {
        final Kind kind;
        final String tableName;
        final Map<String, AttrValue> key; // Key, or the Put item

        @Nullable
        ConditionExpression condition;

        @Nullable
        UpdateExpression update;

        boolean allOldOnFailure;

        @Nullable
        Table table;

        @Nullable
        PrimaryKey pk;

        @Nullable
        DynamoException schemaError;

        Action(Kind kind, String tableName, Map<String, AttrValue> key) {
            this.kind = kind;
            this.tableName = tableName;
            this.key = key;
        }

        /** The action's table, which commit() resolves before anything reads it. */
        Table table() {
            return Objects.requireNonNull(table);
        }
    }

    private static List<JsonNode> checkActionCount(@Nullable List<JsonNode> items) {
        if (items == null) {
            throw Errors.validation("1 validation error detected: Value null at 'transactItems' failed to satisfy "
                    + "constraint: Member must not be null");
        }
        if (items.isEmpty()) {
            throw Errors.validation("1 validation error detected: Value '[]' at 'transactItems' failed to satisfy "
                    + "constraint: Member must have length greater than or equal to 1");
        }
        if (items.size() > MAX_ACTIONS) {
            throw Errors.validation("1 validation error detected: Value '" + items + "' at 'transactItems' failed to "
                    + "satisfy constraint: Member must have length less than or equal to " + MAX_ACTIONS);
        }
        return items;
    }

    ObjectNode transactWriteItems(ObjectNode body) {
        Requests.onlyMembers(
                "TransactWriteItems",
                body,
                Set.of("TransactItems", "ReturnConsumedCapacity", "ReturnItemCollectionMetrics", "ClientRequestToken"));
        List<JsonNode> items = checkActionCount(Requests.list(body, "TransactItems"));
        String capacityMode = Requests.returnConsumedCapacity(body);
        Requests.returnItemCollectionMetrics(body);
        String token = Requests.string(body, "ClientRequestToken");
        if (token != null && (token.isEmpty() || token.length() > 36)) {
            throw Errors.validation("1 validation error detected: Value '" + token + "' at 'clientRequestToken' failed "
                    + "to satisfy constraint: Member must have length "
                    + (token.isEmpty() ? "greater than or equal to 1" : "less than or equal to 36"));
        }
        List<Action> actions = new ArrayList<>();
        long bytes = 0;
        for (int i = 0; i < items.size(); i++) {
            Action a = parseWriteAction(items.get(i), i + 1);
            actions.add(a);
            bytes += ItemSize.of(a.key);
        }
        if (bytes > MAX_TRANSACTION_BYTES) {
            throw Errors.validation("Transaction request size cannot exceed 4 MB; the actions of this request total "
                    + bytes + " bytes");
        }
        ObjectNode comparable = body.deepCopy();
        comparable.remove("ClientRequestToken");
        if (token == null) {
            return commit(actions, capacityMode, null, comparable);
        }
        if (inFlight.putIfAbsent(token, Boolean.TRUE) != null) {
            throw Errors.transactionInProgress();
        }
        try {
            IdempotencyCache.Entry previous = db.idempotency.find(token);
            if (previous != null) {
                if (!previous.request().equals(comparable)) {
                    throw Errors.idempotentParameterMismatch();
                }
                return replay(capacityMode, previous);
            }
            return commit(actions, capacityMode, token, comparable);
        } finally {
            inFlight.remove(token);
        }
    }

    private ObjectNode commit(
            List<Action> actions, String capacityMode, @Nullable String token, ObjectNode comparable) {
        for (Action a : actions) {
            a.table = db.table(a.tableName);
        }
        for (Action a : actions) {
            checkKeyNotEmpty(a.table().schema, a.key);
        }
        for (Action a : actions) {
            try {
                a.pk = a.kind == Kind.PUT
                        ? a.table().schema.fromItem(a.key)
                        : a.table().schema.fromKey(a.key);
            } catch (DynamoException e) {
                a.schemaError = e;
            }
        }
        Set<List<Object>> seen = new HashSet<>();
        for (Action a : actions) {
            if (a.pk != null && !seen.add(List.of(a.tableName, a.pk))) {
                throw Errors.validation("Transaction request cannot include multiple operations on one item");
            }
        }
        Map<String, double[]> capacity = new LinkedHashMap<>();
        db.commitLock.lock();
        try {
            List<Map<String, AttrValue>> olds = new ArrayList<>();
            List<Map<String, AttrValue>> news = new ArrayList<>();
            int invalid = -1;
            String invalidMessage = null;
            for (int i = 0; i < actions.size(); i++) {
                Action a = actions.get(i);
                Map<String, AttrValue> old = a.pk == null ? null : a.table().get(a.pk);
                olds.add(old);
                Map<String, AttrValue> after = null;
                if (invalid < 0) {
                    try {
                        after = validate(a, old);
                    } catch (DynamoException e) {
                        invalid = i;
                        invalidMessage = e.getMessage();
                    }
                }
                news.add(after);
            }
            if (invalid >= 0) {
                throw cancellation(actions.size(), invalid, "ValidationError", invalidMessage, null);
            }
            ArrayNode reasons = JSON.arrayNode();
            boolean failed = false;
            for (int i = 0; i < actions.size(); i++) {
                Action a = actions.get(i);
                Map<String, AttrValue> old = olds.get(i);
                if (a.condition != null && !a.condition.matches(old)) {
                    failed = true;
                    ObjectNode reason = reasons.addObject();
                    reason.put("Code", "ConditionalCheckFailed");
                    if (a.allOldOnFailure && old != null) {
                        reason.set("Item", AttrJson.write(old));
                    }
                    reason.put("Message", "The conditional request failed");
                } else {
                    reasons.addObject().put("Code", "None");
                }
            }
            if (failed) {
                throw cancellation(reasons);
            }
            java.util.Set<String> touched = new java.util.LinkedHashSet<>();
            actions.forEach(a -> touched.add(a.tableName));
            db.writeChecked("TransactWriteItems", touched);
            // readers hold the read side: they see none of these items or all of them
            long visibilityStamp = db.visibility.writeLock();
            try {
                for (int i = 0; i < actions.size(); i++) {
                    Action a = actions.get(i);
                    Map<String, AttrValue> old = olds.get(i);
                    Map<String, AttrValue> after = news.get(i);
                    long size = Math.max(old == null ? 0 : ItemSize.of(old), after == null ? 0 : ItemSize.of(after));
                    capacity.computeIfAbsent(a.tableName, t -> new double[1])[0] += 2 * Capacity.write(size);
                    switch (a.kind) {
                        case PUT:
                        case UPDATE:
                            a.table().items.put(a.pk, after);
                            break;
                        case DELETE:
                            a.table().items.remove(a.pk);
                            break;
                        default:
                            break;
                    }
                    db.stats.evaluated(a.tableName, 1);
                    if (i == 0 && actions.size() > 1) {
                        db.hooks.reached(Database.TRANSACTION_APPLYING, "TransactWriteItems", touched);
                    }
                }
            } finally {
                db.visibility.unlockWrite(visibilityStamp);
            }
            if (token != null) {
                Map<String, Integer> perTable = new LinkedHashMap<>();
                actions.forEach(a -> perTable.merge(a.tableName, 1, Integer::sum));
                db.idempotency.record(token, comparable, perTable);
            }
        } finally {
            db.commitLock.unlock();
        }
        capacity.forEach((table, units) -> db.stats.write(table, units[0]));
        ObjectNode response = JSON.objectNode();
        if (!capacityMode.equals("NONE")) {
            ArrayNode consumed = response.putArray("ConsumedCapacity");
            capacity.forEach((table, units) -> consumed.add(Capacity.multi(capacityMode, table, 0, units[0])));
        }
        return response;
    }

    /** A replayed token: success without applying again; capacity is reported as reads. */
    private ObjectNode replay(String capacityMode, IdempotencyCache.Entry previous) {
        ObjectNode response = JSON.objectNode();
        if (!capacityMode.equals("NONE")) {
            ArrayNode consumed = response.putArray("ConsumedCapacity");
            previous.actionsPerTable().forEach((table, n) -> {
                db.stats.read(table, n);
                consumed.add(Capacity.multi(capacityMode, table, n, 0));
            });
        }
        return response;
    }

    private static void checkKeyNotEmpty(KeySchema schema, Map<String, AttrValue> keyOrItem) {
        for (String name : new String[] {schema.hashName(), schema.rangeName()}) {
            if (name != null && keyOrItem.get(name) != null) {
                KeySchema.checkNotEmpty(name, keyOrItem.get(name));
            }
        }
    }

    /** The action's schema and run-time checks; returns the item after a Put or Update. */
    private static @Nullable Map<String, AttrValue> validate(Action a, @Nullable Map<String, AttrValue> old) {
        if (a.schemaError != null) {
            throw a.schemaError;
        }
        switch (a.kind) {
            case PUT:
                ItemOperations.checkItemSize(a.key, "Item size has exceeded the maximum allowed size");
                return ItemOperations.orderedCopy(a.key);
            case UPDATE:
                UpdateExpression update = Objects.requireNonNull(a.update); // an Update has one (checked when parsed)
                for (String name : update.topLevelNames()) {
                    if (a.table().schema.isKeyAttribute(name)) {
                        throw Errors.validation("One or more parameter values were invalid: Cannot update attribute "
                                + name + ". This attribute is part of the key");
                    }
                }
                return ItemOperations.applyUpdate(a.table(), a.key, old, update, Nesting.TOO_DEEP_REASON);
            default:
                return null;
        }
    }

    private static String lowerFirst(String name) {
        return Character.toLowerCase(name.charAt(0)) + name.substring(1);
    }

    private Action parseWriteAction(JsonNode node, int position) {
        if (node == null || !node.isObject()) {
            throw Errors.validation("TransactItems can only contain one of Check, Put, Update or Delete");
        }
        List<Kind> present = new ArrayList<>();
        for (Kind k : Kind.values()) {
            if (Requests.member(node, k.wireName) != null) {
                present.add(k);
            }
        }
        if (present.size() != 1) {
            throw Errors.validation("TransactItems can only contain one of Check, Put, Update or Delete");
        }
        Kind kind = present.get(0);
        ObjectNode body = Objects.requireNonNull(Requests.object(node, kind.wireName)); // present (checked above)
        String memberPath = "transactItems." + position + ".member." + lowerFirst(kind.wireName);
        Requests.onlyMembers("TransactWriteItems " + kind.wireName, body, kind.members);
        Map<String, AttrValue> key =
                ItemOperations.requiredItem(body, kind.keyMember, memberPath + "." + lowerFirst(kind.keyMember));
        if (Requests.member(body, "TableName") == null) {
            throw Errors.validation("1 validation error detected: Value null at '" + memberPath
                    + ".tableName' failed to satisfy constraint: Member must not be null");
        }
        Action a = new Action(kind, Requests.tableName(body, 1), key);
        a.allOldOnFailure =
                ItemOperations.returnValuesOnConditionCheckFailure(body).equals("ALL_OLD");
        String conditionSource = Requests.string(body, "ConditionExpression");
        String updateSource = Requests.string(body, "UpdateExpression");
        if (a.kind == Kind.CONDITION_CHECK && conditionSource == null) {
            throw Errors.validation("1 validation error detected: Value null at '" + memberPath
                    + ".conditionExpression' failed to satisfy constraint: Member must not be null");
        }
        if (a.kind == Kind.UPDATE && updateSource == null) {
            throw Errors.validation("1 validation error detected: Value null at '" + memberPath
                    + ".updateExpression' failed to satisfy constraint: Member must not be null");
        }
        boolean any = conditionSource != null || updateSource != null;
        Placeholders placeholders = Placeholders.read(
                Requests.member(body, "ExpressionAttributeNames"),
                Requests.member(body, "ExpressionAttributeValues"),
                any,
                any
                        ? null
                        : (a.kind == Kind.UPDATE ? "UpdateExpression and ConditionExpression" : "ConditionExpression"));
        a.update = updateSource == null ? null : UpdateExpression.parse(updateSource, placeholders);
        a.condition = conditionSource == null
                ? null
                : ConditionExpression.parse(conditionSource, "ConditionExpression", placeholders);
        placeholders.checkAllUsed();
        return a;
    }

    /** A cancellation where one action has {@code code} and every other action {@code None}. */
    static DynamoException cancellation(
            int actions, int index, String code, @Nullable String message, @Nullable ObjectNode item) {
        ArrayNode reasons = JSON.arrayNode();
        for (int i = 0; i < actions; i++) {
            ObjectNode reason = reasons.addObject();
            if (i == index) {
                reason.put("Code", code);
                if (item != null) {
                    reason.set("Item", item);
                }
                reason.put("Message", message);
            } else {
                reason.put("Code", "None");
            }
        }
        return cancellation(reasons);
    }

    static DynamoException cancellation(ArrayNode reasons) {
        List<String> codes = new ArrayList<>();
        reasons.forEach(r -> codes.add(r.get("Code").textValue()));
        return Errors.transactionCanceled(
                "Transaction cancelled, please refer cancellation reasons for specific reasons "
                        + codes.stream().collect(Collectors.joining(", ", "[", "]")),
                reasons);
    }

    ObjectNode transactGetItems(ObjectNode body) {
        Requests.onlyMembers("TransactGetItems", body, Set.of("TransactItems", "ReturnConsumedCapacity"));
        List<JsonNode> items = checkActionCount(Requests.list(body, "TransactItems"));
        String capacityMode = Requests.returnConsumedCapacity(body);
        List<String> tableNames = new ArrayList<>();
        List<Map<String, AttrValue>> keys = new ArrayList<>();
        List<ProjectionExpression> projections = new ArrayList<>();
        for (int i = 0; i < items.size(); i++) {
            JsonNode node = items.get(i);
            ObjectNode get = node == null || !node.isObject() ? null : Requests.object(node, "Get");
            String memberPath = "transactItems." + (i + 1) + ".member.get";
            if (get == null) {
                throw Errors.validation("1 validation error detected: Value null at '" + memberPath
                        + "' failed to satisfy constraint: Member must not be null");
            }
            Requests.onlyMembers(
                    "TransactGetItems Get",
                    get,
                    Set.of("Key", "TableName", "ProjectionExpression", "ExpressionAttributeNames"));
            if (Requests.member(get, "TableName") == null) {
                throw Errors.validation("1 validation error detected: Value null at '" + memberPath
                        + ".tableName' failed to satisfy constraint: Member must not be null");
            }
            tableNames.add(Requests.tableName(get, 1));
            keys.add(ItemOperations.requiredItem(get, "Key", memberPath + ".key"));
            String projectionSource = Requests.string(get, "ProjectionExpression");
            Placeholders placeholders = Placeholders.read(
                    Requests.member(get, "ExpressionAttributeNames"), null, projectionSource != null, null);
            projections.add(
                    projectionSource == null ? null : ProjectionExpression.parse(projectionSource, placeholders));
            placeholders.checkAllUsed();
        }
        List<Table> tables = new ArrayList<>();
        tableNames.forEach(n -> tables.add(db.table(n)));
        List<PrimaryKey> pks = new ArrayList<>();
        int invalid = -1;
        String invalidMessage = null;
        for (int i = 0; i < keys.size(); i++) {
            try {
                pks.add(tables.get(i).schema.fromKey(keys.get(i)));
            } catch (DynamoException e) {
                pks.add(null);
                if (invalid < 0) {
                    invalid = i;
                    invalidMessage = e.getMessage();
                }
            }
        }
        Set<List<Object>> seen = new HashSet<>();
        for (int i = 0; i < pks.size(); i++) {
            if (pks.get(i) != null && !seen.add(List.of(tableNames.get(i), pks.get(i)))) {
                throw Errors.validation("Transaction request cannot include multiple operations on one item");
            }
        }
        if (invalid >= 0) {
            throw cancellation(keys.size(), invalid, "ValidationError", invalidMessage, null);
        }
        List<Map<String, AttrValue>> found = new ArrayList<>();
        db.commitLock.lock();
        try {
            for (int i = 0; i < pks.size(); i++) {
                found.add(tables.get(i).get(pks.get(i)));
            }
        } finally {
            db.commitLock.unlock();
        }
        ObjectNode response = JSON.objectNode();
        ArrayNode responses = response.putArray("Responses");
        Map<String, double[]> capacity = new LinkedHashMap<>();
        for (int i = 0; i < found.size(); i++) {
            Map<String, AttrValue> item = found.get(i);
            ObjectNode entry = responses.addObject();
            String table = tableNames.get(i);
            capacity.computeIfAbsent(table, t -> new double[1])[0] +=
                    2 * Capacity.read(item == null ? 0 : ItemSize.of(item), true);
            if (item != null) {
                db.stats.evaluated(table, 1);
                db.stats.returned(table, 1);
                entry.set(
                        "Item",
                        AttrJson.write(
                                projections.get(i) == null
                                        ? item
                                        : projections.get(i).apply(item)));
            }
        }
        capacity.forEach((table, units) -> db.stats.read(table, units[0]));
        if (!capacityMode.equals("NONE")) {
            ArrayNode consumed = response.putArray("ConsumedCapacity");
            capacity.forEach((table, units) -> consumed.add(Capacity.multi(capacityMode, table, units[0], 0)));
        }
        return response;
    }

    /** The cancellation an injected transaction conflict produces for a transaction request. */
    static DynamoException conflict(JsonNode body, int index) {
        return injected(body, index, "TransactionConflict");
    }

    /** DynamoDB's message for each documented cancellation reason code. */
    private static final Map<String, String> REASON_MESSAGES = Map.of(
            "ConditionalCheckFailed", "The conditional request failed",
            "ItemCollectionSizeLimitExceeded", "Collection size exceeded.",
            "TransactionConflict", "Transaction is ongoing for the item.",
            "ProvisionedThroughputExceeded", Errors.THROUGHPUT_EXCEEDED_MESSAGE,
            "ThrottlingError",
                    "Throughput exceeds the current capacity of your table or index. DynamoDB is "
                            + "automatically scaling your table or index so please try again shortly. If exceptions persist, "
                            + "check if you have a hot key: "
                            + "https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-partition-key-design.html.",
            "ValidationError", "One or more parameter values were invalid.");

    /** An injected cancellation: {@code code} on one action (clamped to the request's actions), None elsewhere. */
    static DynamoException injected(JsonNode body, int index, String code) {
        JsonNode items = body.get("TransactItems");
        int actions = items != null && items.isArray() && items.size() > 0 ? items.size() : 1;
        return cancellation(
                actions,
                Math.min(index, actions - 1),
                code,
                REASON_MESSAGES.getOrDefault(code, "Injected cancellation reason " + code),
                null);
    }
}
