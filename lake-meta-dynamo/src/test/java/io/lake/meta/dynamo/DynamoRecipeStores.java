package io.lake.meta.dynamo;

import io.lake.meta.MetaStore;
import io.lake.meta.testkit.dynamo.DynamoTestTarget;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** Stores on fresh tables for the recipe suites, sharing one client per test class. */
final class DynamoRecipeStores {

    private static final DynamoTestTarget TARGET = DynamoTestTarget.shared();
    private static DynamoDbClient client;

    private DynamoRecipeStores() {
    }

    static synchronized MetaStore openFresh(String hint) {
        if (client == null) {
            client = TARGET.clientBuilder().build();
        }
        return DynamoMetaStore.builder()
                .client(client)
                .tableName(TARGET.uniqueTableName(hint))
                .createTableIfMissing(true)
                .build();
    }

    static synchronized void closeClient() {
        if (client != null) {
            client.close();
            client = null;
        }
    }
}
