package io.lake.meta.dynamo;

import io.lake.meta.StoreUnavailableException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ResourceInUseException;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;

/**
 * Makes sure a table exists with a layout's key schema: creates it (on demand) when asked and
 * missing, waits until it is usable, and checks its key schema. What the table holds is the
 * layout's business ({@link TableSetup} for v2, {@link LegacyTableSetup} for v1).
 */
final class TableReady {

    /** One string key attribute of a layout's key schema. */
    record KeyAttribute(String name, KeyType type) {}

    static final List<KeyAttribute> V2_SCHEMA =
            List.of(new KeyAttribute(V2Layout.HASH, KeyType.HASH), new KeyAttribute(V2Layout.RANGE, KeyType.RANGE));
    static final List<KeyAttribute> V1_SCHEMA = List.of(new KeyAttribute(V1Layout.HASH, KeyType.HASH));

    private static final Duration POLL = Duration.ofMillis(250);

    private final DynamoDbClient client;
    private final String table;
    private final List<KeyAttribute> schema;
    private final String layoutName;

    TableReady(DynamoDbClient client, String table, List<KeyAttribute> schema, String layoutName) {
        this.client = client;
        this.table = table;
        this.schema = schema;
        this.layoutName = layoutName;
    }

    void ensure(boolean createIfMissing, Duration activeTimeout) {
        TableDescription description = describe();
        if (description == null) {
            if (!createIfMissing) {
                throw new DynamoStoreException(
                        "DynamoDB table '" + table + "' does not exist: create it with key schema " + expectedSchema()
                                + " (see the DynamoDB guide), or build the store with createTableIfMissing(true)");
            }
            create();
        }
        checkSchema(awaitUsable(activeTimeout));
    }

    private @Nullable TableDescription describe() {
        try {
            return client.describeTable(r -> r.tableName(table)).table();
        } catch (ResourceNotFoundException e) {
            return null;
        } catch (SdkException e) {
            throw Failures.onRead("DescribeTable", e, table);
        }
    }

    private void create() {
        try {
            client.createTable(r -> r.tableName(table)
                    .billingMode(BillingMode.PAY_PER_REQUEST)
                    .attributeDefinitions(schema.stream()
                            .map(k -> AttributeDefinition.builder()
                                    .attributeName(k.name())
                                    .attributeType(ScalarAttributeType.S)
                                    .build())
                            .toList())
                    .keySchema(schema.stream()
                            .map(k -> KeySchemaElement.builder()
                                    .attributeName(k.name())
                                    .keyType(k.type())
                                    .build())
                            .toList()));
        } catch (ResourceInUseException e) {
            // another process created it first: accepted once its schema is checked
        } catch (SdkException e) {
            throw Failures.onRead("CreateTable", e, table);
        }
    }

    private TableDescription awaitUsable(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            TableDescription d = describe();
            TableStatus status = d == null ? null : d.tableStatus();
            if (d != null && (status == TableStatus.ACTIVE || status == TableStatus.UPDATING)) {
                return d;
            }
            if (d != null && status != TableStatus.CREATING) {
                throw new DynamoStoreException("DynamoDB table '" + table + "' is " + d.tableStatusAsString()
                        + ", not ACTIVE: lake-meta cannot use it");
            }
            if (System.nanoTime() - deadline > 0) {
                throw new StoreUnavailableException("DynamoDB table '" + table + "' did not become ACTIVE within "
                        + timeout + " (status " + (d == null ? "not visible yet" : d.tableStatusAsString())
                        + "); open the store again later or raise tableActiveTimeout");
            }
            try {
                Thread.sleep(POLL.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new StoreUnavailableException(
                        "interrupted while waiting for table '" + table + "' to become ACTIVE", e);
            }
        }
    }

    private void checkSchema(TableDescription d) {
        Map<String, String> types = d.attributeDefinitions().stream()
                .collect(Collectors.toMap(
                        AttributeDefinition::attributeName, AttributeDefinition::attributeTypeAsString));
        List<KeySchemaElement> keys = d.keySchema();
        boolean ok = keys.size() == schema.size()
                && schema.stream()
                        .allMatch(expected -> keys.stream()
                                        .anyMatch(k -> k.attributeName().equals(expected.name())
                                                && k.keyType() == expected.type())
                                && "S".equals(types.get(expected.name())));
        if (!ok) {
            String found = keys.stream()
                    .map(k ->
                            k.attributeName() + " (" + types.get(k.attributeName()) + ", " + k.keyTypeAsString() + ")")
                    .collect(Collectors.joining(", ", "[", "]"));
            throw new DynamoStoreException("DynamoDB table '" + table + "' has key schema " + found
                    + " but the lake-meta " + layoutName + " layout needs " + expectedSchema()
                    + ": point the store at another table, or create one with that schema");
        }
    }

    String expectedSchema() {
        return schema.stream()
                .map(k -> k.name() + " (S, " + k.type() + ")")
                .collect(Collectors.joining(", ", "[", "]"));
    }
}
