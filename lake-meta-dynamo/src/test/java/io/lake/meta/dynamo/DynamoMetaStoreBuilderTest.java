package io.lake.meta.dynamo;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.InvalidArgumentException;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import software.amazon.awssdk.auth.credentials.AnonymousCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** Builder validation happens before any request: none of these tests needs a server. */
class DynamoMetaStoreBuilderTest {

    @ParameterizedTest
    @ValueSource(ints = {0, -1, 1025, Integer.MAX_VALUE})
    void shardCount_outOfRange_isInvalidArgument(int shards) {
        assertThatThrownBy(() -> DynamoMetaStore.builder().shardCount(shards))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("1 to 1024");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "ab", "bad table!", "ü-table"})
    void tableName_invalid_isInvalidArgument(String name) {
        assertThatThrownBy(() -> DynamoMetaStore.builder().tableName(name))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("[a-zA-Z0-9_.-]");
    }

    @Test
    void tableName_null_isInvalidArgument() {
        assertThatThrownBy(() -> DynamoMetaStore.builder().tableName(null))
                .isInstanceOf(InvalidArgumentException.class);
    }

    @Test
    void client_null_isInvalidArgument() {
        assertThatThrownBy(() -> DynamoMetaStore.builder().client(null)).isInstanceOf(InvalidArgumentException.class);
    }

    @Test
    void tableActiveTimeout_negative_isInvalidArgument() {
        assertThatThrownBy(() -> DynamoMetaStore.builder().tableActiveTimeout(Duration.ofSeconds(-1)))
                .isInstanceOf(InvalidArgumentException.class);
    }

    @ParameterizedTest
    @ValueSource(longs = {-1, 0, 9, 3_600_001})
    void pollInterval_outOfRange_isInvalidArgument(long millis) {
        assertThatThrownBy(() -> DynamoMetaStore.builder().pollInterval(Duration.ofMillis(millis)))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("10 ms to 1 hour");
    }

    @Test
    void pollInterval_null_isInvalidArgument_andTheBoundsAreAccepted() {
        assertThatThrownBy(() -> DynamoMetaStore.builder().pollInterval(null))
                .isInstanceOf(InvalidArgumentException.class);
        DynamoMetaStore.builder().pollInterval(DynamoMetaStore.MIN_POLL_INTERVAL);
        DynamoMetaStore.builder().pollInterval(DynamoMetaStore.MAX_POLL_INTERVAL);
    }

    @Test
    void optionSetTwice_isIllegalState() {
        assertThatThrownBy(() -> DynamoMetaStore.builder().shardCount(4).shardCount(4))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("shardCount");
        assertThatThrownBy(() -> DynamoMetaStore.builder().tableName("abc").tableName("abc"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("tableName");
        assertThatThrownBy(() ->
                        DynamoMetaStore.builder().createTableIfMissing(true).createTableIfMissing(false))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("createTableIfMissing");
        assertThatThrownBy(() -> DynamoMetaStore.builder()
                        .pollInterval(Duration.ofSeconds(1))
                        .pollInterval(Duration.ofSeconds(2)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("pollInterval");
    }

    @Test
    void build_withoutClient_isIllegalState() {
        assertThatThrownBy(() -> DynamoMetaStore.builder().tableName("abc").build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("client");
    }

    @Test
    void build_withoutTableName_isIllegalState() {
        try (DynamoDbClient client = DynamoDbClient.builder()
                .httpClient(UrlConnectionHttpClient.create())
                .region(Region.US_EAST_1)
                .credentialsProvider(AnonymousCredentialsProvider.create())
                .build()) {
            assertThatThrownBy(() -> DynamoMetaStore.builder().client(client).build())
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("tableName");
        }
    }
}
