package io.lake.meta.testserver.dynamodb.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lake.meta.testserver.dynamodb.model.AttrJson;
import io.lake.meta.testserver.dynamodb.protocol.Errors;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/** Reading members of a request body with the service's type and constraint messages. */
final class Requests {

    private static final Pattern TABLE_NAME = Pattern.compile("[a-zA-Z0-9_.-]+");

    private Requests() {}

    /** Rejects any member this emulator does not implement, naming it. */
    static void onlyMembers(String operation, JsonNode body, Set<String> supported) {
        Iterator<String> names = body.fieldNames();
        while (names.hasNext()) {
            String name = names.next();
            if (!body.get(name).isNull() && !supported.contains(name)) {
                throw Errors.unsupported("parameter " + name + " of " + operation);
            }
        }
    }

    static @Nullable JsonNode member(JsonNode body, String name) {
        JsonNode node = body.get(name);
        return node == null || node.isNull() ? null : node;
    }

    static @Nullable String string(JsonNode body, String name) {
        JsonNode node = member(body, name);
        if (node == null) {
            return null;
        }
        if (!node.isTextual()) {
            throw Errors.serialization(AttrJson.jsonTypeName(node) + " cannot be converted to String");
        }
        return node.textValue();
    }

    static @Nullable Boolean bool(JsonNode body, String name) {
        JsonNode node = member(body, name);
        if (node == null) {
            return null;
        }
        if (!node.isBoolean()) {
            throw Errors.serialization(AttrJson.jsonTypeName(node) + " cannot be converted to Boolean");
        }
        return node.booleanValue();
    }

    static @Nullable Long number(JsonNode body, String name) {
        JsonNode node = member(body, name);
        if (node == null) {
            return null;
        }
        if (!node.isIntegralNumber()) {
            throw Errors.serialization(AttrJson.jsonTypeName(node) + " cannot be converted to Long");
        }
        return node.longValue();
    }

    static @Nullable ObjectNode object(JsonNode body, String name) {
        JsonNode node = member(body, name);
        if (node == null) {
            return null;
        }
        if (!node.isObject()) {
            throw Errors.serialization(AttrJson.jsonTypeName(node) + " cannot be converted to Map");
        }
        return (ObjectNode) node;
    }

    static @Nullable List<JsonNode> list(JsonNode body, String name) {
        JsonNode node = member(body, name);
        if (node == null) {
            return null;
        }
        if (!node.isArray()) {
            throw Errors.serialization(AttrJson.jsonTypeName(node) + " cannot be converted to List");
        }
        List<JsonNode> list = new ArrayList<>();
        node.forEach(list::add);
        return list;
    }

    /** A table's ARN; group 1 is the table's name. */
    private static final Pattern TABLE_ARN =
            Pattern.compile("arn:aws[a-z-]*:dynamodb:[^:]*:[0-9]*:table/([a-zA-Z0-9_.-]{3,255})");

    /** A table name, or the name inside a table ARN. */
    static String canonicalTableName(String nameOrArn) {
        if (nameOrArn.startsWith("arn:")) {
            java.util.regex.Matcher arn = TABLE_ARN.matcher(nameOrArn);
            if (arn.matches()) {
                return arn.group(1);
            }
        }
        return nameOrArn;
    }

    /**
     * The request's table name, after the constraint checks of a table name, as one "N validation
     * errors detected" message.
     *
     * @param minLength 3 for CreateTable, 1 for data-plane operations
     */
    static String tableName(JsonNode body, int minLength) {
        String name = string(body, "TableName");
        if (minLength == 1 && name != null && name.startsWith("arn:") && name.length() <= 1024) {
            // data-plane and describe/delete calls also accept the table's ARN
            java.util.regex.Matcher arn = TABLE_ARN.matcher(name);
            if (arn.matches()) {
                return arn.group(1);
            }
        }
        List<String> problems = new ArrayList<>();
        if (name == null) {
            problems.add("Value null at 'tableName' failed to satisfy constraint: Member must not be null");
        } else {
            if (name.length() < minLength) {
                problems.add("Value '" + name + "' at 'tableName' failed to satisfy constraint: "
                        + "Member must have length greater than or equal to " + minLength);
            }
            if (name.length() > 255) {
                problems.add("Value '" + name + "' at 'tableName' failed to satisfy constraint: "
                        + "Member must have length less than or equal to 255");
            }
            if (!name.isEmpty() && !TABLE_NAME.matcher(name).matches()) {
                problems.add("Value '" + name + "' at 'tableName' failed to satisfy constraint: "
                        + "Member must satisfy regular expression pattern: [a-zA-Z0-9_.-]+");
            }
        }
        throwIfAny(problems);
        return Objects.requireNonNull(name); // a null one was a problem
    }

    static void throwIfAny(List<String> problems) {
        if (problems.isEmpty()) {
            return;
        }
        throw Errors.validation(problems.size() + " validation error" + (problems.size() == 1 ? "" : "s")
                + " detected: " + String.join("; ", problems));
    }

    /** Checks an enum member and returns its value, or {@code fallback} when absent. */
    static String enumValue(JsonNode body, String member, String path, String fallback, String... allowed) {
        String value = optionalEnumValue(body, member, path, allowed);
        return value != null ? value : fallback;
    }

    /** Checks an enum member and returns its value, or null when absent. */
    static @Nullable String optionalEnumValue(JsonNode body, String member, String path, String... allowed) {
        String value = string(body, member);
        if (value == null) {
            return null;
        }
        for (String a : allowed) {
            if (a.equals(value)) {
                return value;
            }
        }
        throw Errors.validation("1 validation error detected: Value '" + value + "' at '" + path
                + "' failed to satisfy constraint: Member must satisfy enum value set: [" + String.join(", ", allowed)
                + "]");
    }

    static String returnConsumedCapacity(JsonNode body) {
        return enumValue(body, "ReturnConsumedCapacity", "returnConsumedCapacity", "NONE", "INDEXES", "TOTAL", "NONE");
    }

    static void returnItemCollectionMetrics(JsonNode body) {
        enumValue(body, "ReturnItemCollectionMetrics", "returnItemCollectionMetrics", "NONE", "SIZE", "NONE");
    }

    /** The table names a request addresses, for statistics and fault targeting. */
    static Set<String> tableNames(JsonNode body) {
        Set<String> names = new LinkedHashSet<>();
        JsonNode tableName = body.get("TableName");
        if (tableName != null && tableName.isTextual()) {
            names.add(canonicalTableName(tableName.textValue()));
        }
        JsonNode requestItems = body.get("RequestItems");
        if (requestItems != null && requestItems.isObject()) {
            requestItems.fieldNames().forEachRemaining(n -> names.add(canonicalTableName(n)));
        }
        JsonNode transactItems = body.get("TransactItems");
        if (transactItems != null && transactItems.isArray()) {
            for (JsonNode action : transactItems) {
                if (action.isObject()) {
                    action.forEach(inner -> {
                        JsonNode t = inner.get("TableName");
                        if (t != null && t.isTextual()) {
                            names.add(canonicalTableName(t.textValue()));
                        }
                    });
                }
            }
        }
        return names;
    }
}
