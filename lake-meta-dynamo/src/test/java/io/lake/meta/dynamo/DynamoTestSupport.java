package io.lake.meta.dynamo;

import io.lake.meta.MetaStore;
import io.lake.meta.testkit.dynamo.DynamoTestTarget;
import io.lake.meta.testserver.dynamodb.DynamoDbTestServer;
import io.lake.meta.testserver.dynamodb.stats.TableStatistics;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** Shared plumbing: the chosen DynamoDB target, a client per test, stores on fresh tables. */
abstract class DynamoTestSupport {

    static final DynamoTestTarget TARGET = DynamoTestTarget.shared();

    private final List<AutoCloseable> opened = new ArrayList<>();

    /** A client with the SDK's default DynamoDB retries. */
    DynamoDbClient client() {
        return track(TARGET.newClient());
    }

    <T extends AutoCloseable> T track(T closeable) {
        opened.add(closeable);
        return closeable;
    }

    DynamoTableStore openNew(DynamoDbClient client, String hint, Integer shards) {
        DynamoMetaStore.Builder builder = DynamoMetaStore.builder()
                .client(client)
                .tableName(TARGET.uniqueTableName(hint))
                .createTableIfMissing(true);
        if (shards != null) {
            builder.shardCount(shards);
        }
        return (DynamoTableStore) track(builder.build());
    }

    @AfterEach
    void closeOpened() throws Exception {
        TARGET.inProcessServer().ifPresent(server -> server.faults().clear());
        for (int i = opened.size() - 1; i >= 0; i--) {
            opened.get(i).close();
        }
        opened.clear();
    }

    static String tableOf(MetaStore store) {
        String s = store.toString();
        return s.substring(s.indexOf("table=") + 6, s.indexOf(", layout="));
    }

    /** Requests per operation the in-process server received for {@code table} since {@code before}. */
    static Map<String, Long> requestsSince(TableStatistics before, DynamoDbTestServer server, String table) {
        TableStatistics now = server.statistics().table(table);
        Map<String, Long> delta = new TreeMap<>();
        now.requests().forEach((op, n) -> {
            long d = n - before.requests(op);
            if (d != 0) {
                delta.put(op, d);
            }
        });
        return delta;
    }
}
