package io.lake.meta.dynamo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.KeyPrefix;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaValue;
import io.lake.meta.StoreUnavailableException;
import io.lake.meta.testserver.dynamodb.DynamoDbTestServer;
import io.lake.meta.testserver.dynamodb.fault.Fault;
import io.lake.meta.testserver.dynamodb.stats.TableStatistics;
import io.lake.meta.watch.WatchEvent;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * What a DynamoDB watch costs and when it reads: the prefix is listed before {@code watch}
 * returns and once per poll, one Query per shard for a small prefix. The stores here poll once an
 * hour, so only {@code pollNow()} polls and the requests are counted exactly.
 */
class DynamoWatchTest extends DynamoTestSupport {

    private static final KeyPrefix NS1 = KeyPrefix.of("tbl/ns1/");
    private static final MetaKey A = MetaKey.of("tbl/ns1/a");

    private DynamoDbTestServer server;
    private DynamoDbClient client;

    @BeforeEach
    void needsStatistics() {
        server = TARGET.requireInProcessServer();
        client = client();
    }

    private DynamoTableStore openPollingHourly(int shards) {
        return openPollingHourly(client, shards);
    }

    private DynamoTableStore openPollingHourly(DynamoDbClient client, int shards) {
        return (DynamoTableStore) track(DynamoMetaStore.builder()
                .client(client)
                .tableName(TARGET.uniqueTableName("watch"))
                .createTableIfMissing(true)
                .shardCount(shards)
                .pollInterval(Duration.ofHours(1))
                .build());
    }

    @Test
    void theDefaultPollInterval_isOneSecond() {
        DynamoTableStore store = (DynamoTableStore) track(DynamoMetaStore.builder()
                .client(client)
                .tableName(TARGET.uniqueTableName("watch-default"))
                .createTableIfMissing(true)
                .build());

        assertThat(store.pollInterval())
                .isEqualTo(Duration.ofSeconds(1))
                .isEqualTo(DynamoMetaStore.DEFAULT_POLL_INTERVAL);
    }

    @Test
    void watchAndEachPoll_listTheWholePrefix_oneConsistentQueryPerShard_andAPollReportsWhatChanged() throws Exception {
        DynamoTableStore store = openPollingHourly(4);
        String table = tableOf(store);
        store.create(A, MetaValue.utf8("1"));
        LinkedBlockingQueue<WatchEvent> heard = new LinkedBlockingQueue<>();

        TableStatistics beforeWatch = server.statistics().table(table);
        store.watch(NS1, heard::add);
        Map<String, Long> baseline = requestsSince(beforeWatch, server, table);
        store.update(A, MetaValue.utf8("1"), MetaValue.utf8("2"));
        TableStatistics beforePoll = server.statistics().table(table);
        store.pollNow();
        Map<String, Long> poll = requestsSince(beforePoll, server, table);

        assertThat(baseline).isEqualTo(Map.of("Query", 4L));
        assertThat(poll).isEqualTo(Map.of("Query", 4L));
        assertThat(heard.poll(30, TimeUnit.SECONDS)).isEqualTo(WatchEvent.initial(A, MetaValue.utf8("1")));
        assertThat(heard.poll(30, TimeUnit.SECONDS)).isEqualTo(WatchEvent.changed(A, MetaValue.utf8("2")));
    }

    @Test
    void aTableThatCannotBeRead_failsTheWatchCall_retryable_andNothingIsPolled() {
        // few SDK attempts, so that giving up takes milliseconds, not the default backoff's seconds
        DynamoDbClient impatient =
                track(TARGET.newClient(b -> b.overrideConfiguration(o -> o.retryStrategy(r -> r.maxAttempts(2)))));
        DynamoTableStore store = openPollingHourly(impatient, 1);
        String table = tableOf(store);
        server.faults()
                .arm(Fault.provisionedThroughputExceeded()
                        .onOperation("Query")
                        .onTable(table)
                        .times(1000));

        assertThatThrownBy(() -> store.watch(NS1, event -> {}))
                .isInstanceOf(StoreUnavailableException.class)
                .satisfies(e ->
                        assertThat(((StoreUnavailableException) e).retryable()).isTrue());
        server.faults().clear();
        TableStatistics before = server.statistics().table(table);
        store.pollNow();

        assertThat(requestsSince(before, server, table))
                .as("no watch left to poll")
                .isEmpty();
    }
}
