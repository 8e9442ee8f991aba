package io.lake.meta.testserver.dynamodb.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.lake.meta.testserver.dynamodb.model.AttrValue;
import io.lake.meta.testserver.dynamodb.protocol.Errors;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/** CreateTable, DescribeTable, DeleteTable, ListTables. */
final class TableOperations {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private final Database db;

    TableOperations(Database db) {
        this.db = db;
    }

    ObjectNode createTable(ObjectNode body) {
        Requests.onlyMembers(
                "CreateTable",
                body,
                Set.of(
                        "TableName",
                        "AttributeDefinitions",
                        "KeySchema",
                        "BillingMode",
                        "ProvisionedThroughput",
                        "TableClass"));
        if (Requests.member(body, "TableName") == null) {
            throw Errors.validation("The parameter 'TableName' is required but was not present in the request");
        }
        String name = Requests.tableName(body, 3);
        String billing =
                Requests.enumValue(body, "BillingMode", "billingMode", "PROVISIONED", "PROVISIONED", "PAY_PER_REQUEST");
        String tableClass = Requests.enumValue(
                body, "TableClass", "tableClass", "STANDARD", "STANDARD", "STANDARD_INFREQUENT_ACCESS");
        if (!tableClass.equals("STANDARD")) {
            throw Errors.unsupported("TableClass " + tableClass);
        }
        List<JsonNode> definitions = Requests.list(body, "AttributeDefinitions");
        List<JsonNode> keySchema = Requests.list(body, "KeySchema");
        List<String> problems = new ArrayList<>();
        if (definitions == null) {
            problems.add("Value null at 'attributeDefinitions' failed to satisfy constraint: Member must not be null");
        }
        if (keySchema == null) {
            problems.add("Value null at 'keySchema' failed to satisfy constraint: Member must not be null");
        } else if (keySchema.isEmpty() || keySchema.size() > 2) {
            problems.add(
                    "Value '" + keySchema + "' at 'keySchema' failed to satisfy constraint: Member must have length "
                            + (keySchema.isEmpty() ? "greater than or equal to 1" : "less than or equal to 2"));
        }
        Requests.throwIfAny(problems);
        Objects.requireNonNull(definitions); // a null one was a problem, as was a null key schema
        Objects.requireNonNull(keySchema);
        Map<String, AttrValue.Type> types = new LinkedHashMap<>();
        for (int i = 0; i < definitions.size(); i++) {
            JsonNode d = definitions.get(i);
            String attribute = Requests.string(d, "AttributeName");
            String type = Requests.optionalEnumValue(
                    d, "AttributeType", "attributeDefinitions." + (i + 1) + ".member.attributeType", "B", "N", "S");
            if (attribute == null || type == null) {
                throw Errors.validation("1 validation error detected: Value null at 'attributeDefinitions."
                        + (i + 1) + ".member." + (attribute == null ? "attributeName" : "attributeType")
                        + "' failed to satisfy constraint: Member must not be null");
            }
            types.put(attribute, AttrValue.Type.valueOf(type));
        }
        String hash = null;
        String range = null;
        for (int i = 0; i < keySchema.size(); i++) {
            JsonNode k = keySchema.get(i);
            String attribute = Requests.string(k, "AttributeName");
            String keyType = Requests.optionalEnumValue(
                    k, "KeyType", "keySchema." + (i + 1) + ".member.keyType", "HASH", "RANGE");
            if (attribute == null || keyType == null) {
                throw Errors.validation("1 validation error detected: Value null at 'keySchema." + (i + 1) + ".member."
                        + (attribute == null ? "attributeName" : "keyType")
                        + "' failed to satisfy constraint: Member must not be null");
            }
            if (attribute.getBytes(java.nio.charset.StandardCharsets.UTF_8).length > 255) {
                throw Errors.validation("One or more parameter values were invalid: Key attribute name is too long "
                        + "(at most 255 bytes): " + attribute);
            }
            if (i == 0 && !keyType.equals("HASH")) {
                throw Errors.validation("Invalid KeySchema: The first KeySchemaElement is not a HASH key type");
            }
            if (i == 1 && !keyType.equals("RANGE")) {
                throw Errors.validation("Invalid KeySchema: The second KeySchemaElement is not a RANGE key type");
            }
            if (i == 0) {
                hash = attribute;
            } else {
                range = attribute;
            }
        }
        if (range != null && range.equals(hash)) {
            throw Errors.validation("Both the Hash Key and the Range Key element in the KeySchema have the same name");
        }
        if (keySchema.size() > types.size()) {
            throw Errors.validation("Invalid KeySchema: Some index key attribute have no definition");
        }
        if (!types.containsKey(hash) || (range != null && !types.containsKey(range))) {
            List<String> keys = new ArrayList<>();
            keys.add(hash);
            if (range != null) {
                keys.add(range);
            }
            throw Errors.validation(
                    "One or more parameter values were invalid: Some index key attributes are not defined "
                            + "in AttributeDefinitions. Keys: " + keys + ", AttributeDefinitions: "
                            + new ArrayList<>(types.keySet()));
        }
        if (types.size() != keySchema.size()) {
            throw Errors.validation(
                    "One or more parameter values were invalid: Number of attributes in KeySchema does not "
                            + "exactly match number of attributes defined in AttributeDefinitions");
        }
        ObjectNode throughput = Requests.object(body, "ProvisionedThroughput");
        long read = 0;
        long write = 0;
        boolean payPerRequest = billing.equals("PAY_PER_REQUEST");
        if (payPerRequest) {
            if (throughput != null) {
                throw Errors.validation("One or more parameter values were invalid: Neither ReadCapacityUnits nor "
                        + "WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST");
            }
        } else {
            Long r = throughput == null ? null : Requests.number(throughput, "ReadCapacityUnits");
            Long w = throughput == null ? null : Requests.number(throughput, "WriteCapacityUnits");
            if (r == null || w == null) {
                throw Errors.validation("One or more parameter values were invalid: ReadCapacityUnits and "
                        + "WriteCapacityUnits must both be specified when BillingMode is PROVISIONED");
            }
            List<String> bad = new ArrayList<>();
            if (r < 1) {
                bad.add("Value '" + r + "' at 'provisionedThroughput.readCapacityUnits' failed to satisfy constraint: "
                        + "Member must have value greater than or equal to 1");
            }
            if (w < 1) {
                bad.add("Value '" + w + "' at 'provisionedThroughput.writeCapacityUnits' failed to satisfy constraint: "
                        + "Member must have value greater than or equal to 1");
            }
            Requests.throwIfAny(bad);
            read = r;
            write = w;
        }
        // the key schema has a HASH element first, and every key attribute is defined (checked above)
        String hashName = Objects.requireNonNull(hash);
        KeySchema schema = new KeySchema(
                hashName, Objects.requireNonNull(types.get(hashName)), range, range == null ? null : types.get(range));
        java.time.Instant now = db.clock.instant();
        Table table = new Table(
                name, schema, payPerRequest, read, write, now, now.plus(db.tableCreationDelay), db.region, db.account);
        db.commitLock.lock();
        try {
            if (db.tables.putIfAbsent(name, table) != null) {
                throw Errors.resourceInUse("Table already exists: " + name);
            }
        } finally {
            db.commitLock.unlock();
        }
        ObjectNode response = JSON.objectNode();
        // DynamoDB answers CREATING; the table turns ACTIVE after the configured delay (0 by default).
        response.set("TableDescription", table.describe("CREATING"));
        return response;
    }

    ObjectNode describeTable(ObjectNode body) {
        Requests.onlyMembers("DescribeTable", body, Set.of("TableName"));
        String name = Requests.tableName(body, 1);
        Table table = db.tables.get(name);
        if (table == null) {
            throw Errors.resourceNotFound("Requested resource not found: Table: " + name + " not found");
        }
        ObjectNode response = JSON.objectNode();
        response.set("Table", table.describe(table.creating(db.clock.instant()) ? "CREATING" : "ACTIVE"));
        return response;
    }

    ObjectNode deleteTable(ObjectNode body) {
        Requests.onlyMembers("DeleteTable", body, Set.of("TableName"));
        String name = Requests.tableName(body, 1);
        Table table;
        db.commitLock.lock();
        try {
            table = db.tables.get(name);
            if (table != null && table.creating(db.clock.instant())) {
                throw Errors.resourceInUse(
                        "Attempt to change a resource which is still in use: Table is being created: " + name);
            }
            table = db.tables.remove(name);
        } finally {
            db.commitLock.unlock();
        }
        if (table == null) {
            throw Errors.resourceNotFound("Requested resource not found: Table: " + name + " not found");
        }
        ObjectNode response = JSON.objectNode();
        response.set("TableDescription", table.describe("DELETING"));
        return response;
    }

    ObjectNode listTables(ObjectNode body) {
        Requests.onlyMembers("ListTables", body, Set.of("ExclusiveStartTableName", "Limit"));
        String start = Requests.string(body, "ExclusiveStartTableName");
        Long limit = Requests.number(body, "Limit");
        if (limit != null && (limit < 1 || limit > 100)) {
            throw Errors.validation("1 validation error detected: Value '" + limit + "' at 'limit' failed to satisfy "
                    + "constraint: Member must have value "
                    + (limit < 1 ? "greater than or equal to 1" : "less than or equal to 100"));
        }
        int max = limit == null ? 100 : limit.intValue();
        List<String> names = new ArrayList<>(db.tables.keySet());
        names.sort(null);
        ObjectNode response = JSON.objectNode();
        ArrayNode page = response.putArray("TableNames");
        String last = null;
        int i = 0;
        for (String name : names) {
            if (start != null && name.compareTo(start) <= 0) {
                continue;
            }
            if (i == max) {
                response.put("LastEvaluatedTableName", last);
                break;
            }
            page.add(name);
            last = name;
            i++;
        }
        return response;
    }
}
