package io.lake.meta.reliability;

import io.lake.meta.MetaStore;
import io.lake.meta.dynamo.DynamoMetaStore;
import io.lake.meta.testkit.dynamo.DynamoTestTarget;
import io.lake.meta.testserver.dynamodb.DynamoDbTestServer;
import java.time.Duration;
import java.util.Optional;
import software.amazon.awssdk.retries.api.BackoffStrategy;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * DynamoDB stores for the suites, on the testkit's chosen target (the in-process server unless
 * {@code LAKE_META_DYNAMO_ENDPOINT} names another, or a Docker engine answers for LocalStack).
 * Fault plans exist only on the in-process server; a suite that injects faults asks for it and is
 * skipped, with the reason, elsewhere.
 */
public final class DynamoStores {

    /** Attempts per call: the SDK retries a throttle, a 5xx or a lost answer this many times in all. */
    public static final int MAX_ATTEMPTS = 3;

    private DynamoStores() {}

    public static DynamoTestTarget target() {
        return DynamoTestTarget.shared();
    }

    /** The in-process server, or empty on another target. */
    public static Optional<DynamoDbTestServer> server() {
        return target().inProcessServer();
    }

    /**
     * The in-process server, for a suite that injects faults; elsewhere the suite is skipped, and
     * the reason printed with the suite's area (not only in the test report).
     */
    public static DynamoDbTestServer requireFaultInjection(String area) {
        if (server().isEmpty()) {
            System.out.println(
                    "[reliability] " + area + ": skipped: it injects faults, which needs the in-process DynamoDB"
                            + " test server, but the target is " + target());
        }
        return target().requireInProcessServer();
    }

    /** A client whose retries are quick (2 ms apart), so faults cost little time. The caller closes it. */
    public static DynamoDbClient quickRetryingClient() {
        return target().newClient(b -> b.overrideConfiguration(o -> o.retryStrategy(r -> r.maxAttempts(MAX_ATTEMPTS)
                .backoffStrategy(BackoffStrategy.fixedDelay(Duration.ofMillis(2)))
                .throttlingBackoffStrategy(BackoffStrategy.fixedDelay(Duration.ofMillis(2))))));
    }

    /** A store on a new table; the client stays the caller's. */
    public static MetaStore newStore(DynamoDbClient client, String hint, int shards) {
        return DynamoMetaStore.builder()
                .client(client)
                .tableName(target().uniqueTableName(hint))
                .createTableIfMissing(true)
                .shardCount(shards)
                .build();
    }

    /** The table a store writes to, from its description. */
    public static String tableOf(MetaStore store) {
        String s = store.toString();
        return s.substring(s.indexOf("table=") + 6, s.indexOf(", layout="));
    }
}
