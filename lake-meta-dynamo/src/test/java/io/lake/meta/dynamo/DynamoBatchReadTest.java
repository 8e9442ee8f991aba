package io.lake.meta.dynamo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.MetaKey;
import io.lake.meta.MetaValue;
import io.lake.meta.StoreUnavailableException;
import io.lake.meta.testserver.dynamodb.DynamoDbTestServer;
import io.lake.meta.testserver.dynamodb.fault.Fault;
import io.lake.meta.testserver.dynamodb.stats.TableStatistics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** {@code getAll} as BatchGetItem: 100 keys a request, unprocessed keys retried until a deadline. */
class DynamoBatchReadTest extends DynamoTestSupport {

    private DynamoDbTestServer server;
    private DynamoDbClient client;
    private DynamoTableStore store;
    private String table;
    private final List<MetaKey> keys = new ArrayList<>();

    @BeforeEach
    void openWithTenKeys() {
        server = TARGET.requireInProcessServer();
        client = client();
        store = openNew(client, "batch", null);
        table = tableOf(store);
        for (int i = 0; i < 10; i++) {
            MetaKey key = MetaKey.of("tbl/ns1/t" + i);
            keys.add(key);
            store.create(key, MetaValue.utf8("v" + i));
        }
    }

    @Test
    void keysAreAskedForAHundredARequest_consistently() {
        List<MetaKey> many = new ArrayList<>(keys);
        for (int i = 0; i < 240; i++) {
            many.add(MetaKey.of("tbl/absent/k" + i));
        }
        TableStatistics before = server.statistics().table(table);

        assertThat(store.getAll(many)).hasSize(10);

        assertThat(requestsSince(before, server, table)).containsExactlyEntriesOf(Map.of("BatchGetItem", 3L));
    }

    @Test
    void unprocessedKeys_areAskedForAgain_untilEveryKeyWasRead() {
        server.faults()
                .arm(Fault.unprocessed(4)
                        .onOperation("BatchGetItem")
                        .onTable(table)
                        .times(2));
        TableStatistics before = server.statistics().table(table);

        Map<MetaKey, MetaValue> found = store.getAll(keys);

        assertThat(found.keySet()).containsExactlyElementsOf(keys);
        assertThat(requestsSince(before, server, table)).containsExactlyEntriesOf(Map.of("BatchGetItem", 3L));
    }

    @Test
    void keysStillUnprocessedAtTheDeadline_areARetryableErrorNamingHowManyWereLeft() {
        server.faults()
                .arm(Fault.unprocessed(3)
                        .onOperation("BatchGetItem")
                        .onTable(table)
                        .always());
        AtomicLong now = new AtomicLong();
        List<Long> pauses = new ArrayList<>();
        BatchRead reads = new BatchRead(
                client, table, new V2Layout(V2Layout.DEFAULT_SHARDS), Duration.ofSeconds(2), now::get, millis -> {
                    pauses.add(millis);
                    now.addAndGet(millis * 1_000_000);
                });

        assertThatThrownBy(() -> reads.read(keys))
                .isInstanceOf(StoreUnavailableException.class)
                .hasMessageContaining("left 3 of 10 keys unread after PT2S")
                .satisfies(e ->
                        assertThat(((StoreUnavailableException) e).retryable()).isTrue());

        assertThat(pauses)
                .as("backoff between rounds, capped at one second")
                .isNotEmpty()
                .allSatisfy(p -> assertThat(p).isBetween(1L, 1_000L));
        assertThat(pauses.stream().mapToLong(Long::longValue).sum())
                .as("waited no longer than the deadline")
                .isLessThanOrEqualTo(2_001L);
    }
}
