package io.lake.meta.dynamo;

import io.lake.meta.MetaStore;
import io.lake.meta.testkit.lock.FencedLockContract;
import io.lake.meta.testkit.dynamo.DynamoTestTarget;
import org.junit.jupiter.api.AfterAll;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** The fenced-lock suite on the DynamoDB store, one fresh table per test. */
class DynamoFencedLockTest extends FencedLockContract {

    private static final DynamoTestTarget TARGET = DynamoTestTarget.shared();
    private static DynamoDbClient client;

    private static synchronized DynamoDbClient client() {
        if (client == null) {
            client = TARGET.clientBuilder().build();
        }
        return client;
    }

    @Override
    protected MetaStore openStore() {
        return DynamoMetaStore.builder()
                .client(client())
                .tableName(TARGET.uniqueTableName("fencedlock"))
                .createTableIfMissing(true)
                .build();
    }

    @AfterAll
    static synchronized void closeClient() {
        if (client != null) {
            client.close();
            client = null;
        }
    }
}
