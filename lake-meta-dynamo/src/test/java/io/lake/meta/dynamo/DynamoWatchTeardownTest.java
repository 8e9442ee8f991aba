package io.lake.meta.dynamo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.lake.meta.KeyPrefix;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaValue;
import io.lake.meta.watch.WatchEvent;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * A watch whose table is deleted under it (a test tearing its tables down, an operator dropping
 * the table) ends quietly: no warning per poll, no more polls, and the store's other calls still
 * report the missing table.
 */
class DynamoWatchTeardownTest extends DynamoTestSupport {

    private static final KeyPrefix NS1 = KeyPrefix.of("tbl/ns1/");
    private static final MetaKey A = MetaKey.of("tbl/ns1/a");

    @Test
    void aWatchOnADeletedTable_endsQuietly() throws Exception {
        TARGET.requireInProcessServer();
        DynamoDbClient client = client();
        DynamoTableStore store = (DynamoTableStore) track(DynamoMetaStore.builder()
                .client(client)
                .tableName(TARGET.uniqueTableName("teardown"))
                .createTableIfMissing(true)
                .pollInterval(Duration.ofHours(1))
                .build());
        store.create(A, MetaValue.utf8("1"));
        LinkedBlockingQueue<WatchEvent> heard = new LinkedBlockingQueue<>();
        store.watch(NS1, heard::add);
        assertThat(heard.poll(30, TimeUnit.SECONDS)).isEqualTo(WatchEvent.initial(A, MetaValue.utf8("1")));

        client.deleteTable(b -> b.tableName(tableOf(store)));
        PrintStream stderr = System.err;
        ByteArrayOutputStream logged = new ByteArrayOutputStream();
        System.setErr(new PrintStream(logged, true, StandardCharsets.UTF_8));
        try {
            assertThatCode(store::pollNow)
                    .as("the poll that finds the table gone")
                    .doesNotThrowAnyException();
            assertThatCode(store::pollNow)
                    .as("a later poll: the watch has ended")
                    .doesNotThrowAnyException();
        } finally {
            System.setErr(stderr);
        }

        assertThat(logged.toString(StandardCharsets.UTF_8))
                .as("what the teardown logged")
                .doesNotContain("WARN");
        assertThat(heard).as("nothing heard after the table went").isEmpty();
    }
}
