package io.lake.meta.dynamo;

import io.lake.meta.MetaStore;
import io.lake.meta.testkit.dynamo.DynamoTestTarget;
import io.lake.meta.testkit.lease.LeaseFencingContract;
import java.util.Optional;
import org.junit.jupiter.api.AfterAll;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** The lease and fencing suite on the DynamoDB store, one fresh table (or pair of tables) per test. */
class DynamoLeaseFencingTest extends LeaseFencingContract {

    private static final DynamoTestTarget TARGET = DynamoTestTarget.shared();
    private static DynamoDbClient client;

    private static synchronized DynamoDbClient client() {
        if (client == null) {
            client = TARGET.clientBuilder().build();
        }
        return client;
    }

    /** The layout mode the stores are opened in. */
    protected ModeFixture.TestedMode mode() {
        return ModeFixture.TestedMode.V2;
    }

    /** The shard count the stores are built with; empty leaves it to the builder's default. */
    protected Optional<Integer> shardCount() {
        return Optional.empty();
    }

    @Override
    protected MetaStore openStore() {
        return ModeFixture.open(client(), TARGET, mode(), shardCount(), "lease").store();
    }

    @AfterAll
    static synchronized void closeClient() {
        if (client != null) {
            client.close();
            client = null;
        }
    }
}
