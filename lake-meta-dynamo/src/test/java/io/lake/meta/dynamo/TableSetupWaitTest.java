package io.lake.meta.dynamo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.StoreUnavailableException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.CreateTableResponse;
import software.amazon.awssdk.services.dynamodb.model.DescribeTableRequest;
import software.amazon.awssdk.services.dynamodb.model.DescribeTableResponse;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemResponse;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;

/**
 * Waiting for a table to become ACTIVE, driven by a scripted client: the in-process server
 * makes tables ACTIVE at once, so the CREATING path is only reachable this way.
 */
class TableSetupWaitTest {

    /** Answers DescribeTable from a script of statuses (null = not found); the last one repeats. */
    static final class CreatingTableClient implements DynamoDbClient {
        final List<TableStatus> statuses;
        final AtomicInteger describes = new AtomicInteger();
        final AtomicInteger creates = new AtomicInteger();

        CreatingTableClient(TableStatus... statuses) {
            this.statuses = java.util.Arrays.asList(statuses);
        }

        @Override
        public DescribeTableResponse describeTable(DescribeTableRequest request) {
            int call = describes.getAndIncrement();
            TableStatus status = statuses.get(Math.min(call, statuses.size() - 1));
            if (status == null) {
                throw ResourceNotFoundException.builder()
                        .message("Requested resource not found")
                        .build();
            }
            return DescribeTableResponse.builder()
                    .table(TableDescription.builder()
                            .tableName(request.tableName())
                            .tableStatus(status)
                            .attributeDefinitions(
                                    AttributeDefinition.builder()
                                            .attributeName("pk")
                                            .attributeType("S")
                                            .build(),
                                    AttributeDefinition.builder()
                                            .attributeName("sk")
                                            .attributeType("S")
                                            .build())
                            .keySchema(
                                    KeySchemaElement.builder()
                                            .attributeName("pk")
                                            .keyType(KeyType.HASH)
                                            .build(),
                                    KeySchemaElement.builder()
                                            .attributeName("sk")
                                            .keyType(KeyType.RANGE)
                                            .build())
                            .build())
                    .build();
        }

        @Override
        public CreateTableResponse createTable(CreateTableRequest request) {
            creates.incrementAndGet();
            return CreateTableResponse.builder().build();
        }

        @Override
        public GetItemResponse getItem(GetItemRequest request) {
            return GetItemResponse.builder()
                    .item(Map.of(
                            "pk",
                            AttributeValue.fromS("#layout"),
                            "sk",
                            AttributeValue.fromS("#layout"),
                            "format",
                            AttributeValue.fromS("lake-meta"),
                            "layout_version",
                            AttributeValue.fromN("2"),
                            "shards",
                            AttributeValue.fromN("16")))
                    .build();
        }

        /** The migration records a V2 open looks for: none, as on a table never migrated to. */
        @Override
        public QueryResponse query(QueryRequest request) {
            return QueryResponse.builder()
                    .items(List.of())
                    .count(0)
                    .scannedCount(0)
                    .build();
        }

        @Override
        public PutItemResponse putItem(PutItemRequest request) {
            throw new AssertionError("the layout record exists; nothing is written");
        }

        @Override
        public String serviceName() {
            return "dynamodb";
        }

        @Override
        public void close() {}
    }

    @Test
    void creatingTable_isAwaitedUntilActive() {
        // missing -> created -> not visible yet -> CREATING -> ACTIVE
        CreatingTableClient client = new CreatingTableClient(null, null, TableStatus.CREATING, TableStatus.ACTIVE);
        DynamoTableStore store = (DynamoTableStore) DynamoMetaStore.builder()
                .client(client)
                .tableName("waiting")
                .createTableIfMissing(true)
                .build();
        assertThat(((V2Layout) store.layout()).shards()).isEqualTo(16);
        assertThat(client.creates.get()).isEqualTo(1);
        assertThat(client.describes.get()).isEqualTo(4);
    }

    @Test
    void tableNeverActive_isUnavailable_afterTheTimeout() {
        CreatingTableClient client = new CreatingTableClient(TableStatus.CREATING);
        assertThatThrownBy(() -> DynamoMetaStore.builder()
                        .client(client)
                        .tableName("stuck")
                        .tableActiveTimeout(Duration.ZERO)
                        .build())
                .isInstanceOf(StoreUnavailableException.class)
                .hasMessageContaining("did not become ACTIVE")
                .hasMessageContaining("CREATING");
        assertThat(client.creates.get())
                .as("an existing (creating) table is never created again")
                .isZero();
    }

    @Test
    void deletingTable_isAClearError() {
        for (TableStatus status : List.of(TableStatus.DELETING, TableStatus.ARCHIVED)) {
            CreatingTableClient client = new CreatingTableClient(status);
            assertThatThrownBy(() -> DynamoMetaStore.builder()
                            .client(client)
                            .tableName("gone")
                            .build())
                    .isInstanceOf(DynamoStoreException.class)
                    .hasMessageContaining(status.toString());
        }
    }

    @Test
    void updatingTable_isUsable() {
        CreatingTableClient client = new CreatingTableClient(TableStatus.UPDATING);
        assertThat(DynamoMetaStore.builder()
                        .client(client)
                        .tableName("updating")
                        .build())
                .isNotNull();
    }
}
