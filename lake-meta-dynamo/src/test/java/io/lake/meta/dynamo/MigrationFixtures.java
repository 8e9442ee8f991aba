package io.lake.meta.dynamo;

import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** Migration states the suites need before the engine under test is involved. */
final class MigrationFixtures {

    private MigrationFixtures() {
    }

    /** Finalizes the migration of an empty legacy table to an empty v2 table. */
    static void finalizeEmpty(DynamoDbClient client, String legacy, String table) {
        Map<String, AttributeValue> v2 = new java.util.HashMap<>(MigrationRecords.v2Key(MigrationRecords.COMPLETE));
        v2.put("items", AttributeValue.fromN("0"));
        Map<String, AttributeValue> v1 = new java.util.HashMap<>(MigrationRecords.v1CompleteKey());
        v1.put("items", AttributeValue.fromN("0"));
        client.putItem(r -> r.tableName(table).item(v2));
        client.putItem(r -> r.tableName(legacy).item(v1));
    }
}
