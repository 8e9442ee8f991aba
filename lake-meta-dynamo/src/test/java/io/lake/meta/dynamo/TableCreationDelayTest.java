package io.lake.meta.dynamo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.StoreUnavailableException;
import io.lake.meta.testserver.dynamodb.DynamoDbTestServer;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * A table that stays CREATING for a while, end to end: each test starts its own in-process
 * server with a table-creation delay (data-plane calls answer ResourceNotFound meanwhile).
 */
class TableCreationDelayTest {

    private static DynamoDbClient clientOf(DynamoDbTestServer server) {
        return DynamoDbClient.builder()
                .endpointOverride(server.endpoint())
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("test", "test")))
                .httpClientBuilder(UrlConnectionHttpClient.builder())
                .build();
    }

    @Test
    void build_waitsWhileTheNewTableIsCreating() {
        try (DynamoDbTestServer server = DynamoDbTestServer.builder()
                        .tableCreationDelay(Duration.ofMillis(1500))
                        .build()
                        .start();
                DynamoDbClient client = clientOf(server)) {
            MetaStore store = DynamoMetaStore.builder()
                    .client(client)
                    .tableName("creating-table")
                    .createTableIfMissing(true)
                    .build();

            assertThat(server.statistics().table("creating-table").requests("DescribeTable"))
                    .as("polled while CREATING")
                    .isGreaterThanOrEqualTo(3);
            assertThat(store.create(MetaKey.of("tbl/a"), MetaValue.utf8("v")).isApplied())
                    .isTrue();
            store.close();
        }
    }

    @Test
    void build_givesUpAfterTheTimeout_andAReopenLaterSucceeds() {
        try (DynamoDbTestServer server = DynamoDbTestServer.builder()
                        .tableCreationDelay(Duration.ofMillis(1500))
                        .build()
                        .start();
                DynamoDbClient client = clientOf(server)) {
            assertThatThrownBy(() -> DynamoMetaStore.builder()
                            .client(client)
                            .tableName("slow-table")
                            .createTableIfMissing(true)
                            .tableActiveTimeout(Duration.ofMillis(100))
                            .build())
                    .isInstanceOf(StoreUnavailableException.class)
                    .hasMessageContaining("did not become ACTIVE");

            MetaStore store = DynamoMetaStore.builder()
                    .client(client)
                    .tableName("slow-table")
                    .createTableIfMissing(true)
                    .build();
            assertThat(server.statistics().table("slow-table").requests("CreateTable"))
                    .as("created once")
                    .isEqualTo(1);
            assertThat(store.get(MetaKey.of("tbl/a"))).isEmpty();
            store.close();
        }
    }
}
