package io.lake.meta.dynamo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.lake.meta.InvalidArgumentException;
import io.lake.meta.InvalidPageTokenException;
import io.lake.meta.KeyPrefix;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.Page;
import io.lake.meta.PageRequest;
import io.lake.meta.StoreClosedException;
import io.lake.meta.testserver.dynamodb.DynamoDbTestServer;
import io.lake.meta.testserver.dynamodb.stats.TableStatistics;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ResourceNotFoundException;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.TableDescription;
import software.amazon.awssdk.services.dynamodb.model.TableStatus;

/** Opening a table: creation, schema and layout checks, the layout record, ownership of the client. */
class DynamoTableSetupTest extends DynamoTestSupport {

    private static final MetaKey K = MetaKey.of("tbl/ns1/orders");

    private MetaStore open(DynamoDbClient client, String table, Integer shards, boolean create) {
        DynamoMetaStore.Builder b =
                DynamoMetaStore.builder().client(client).tableName(table).createTableIfMissing(create);
        if (shards != null) {
            b.shardCount(shards);
        }
        return track(b.build());
    }

    @Test
    void createTableIfMissing_createsTheV2SchemaAndWritesTheLayoutRecord() {
        DynamoDbClient client = client();
        String table = TARGET.uniqueTableName("setup-create");
        MetaStore store = open(client, table, null, true);

        TableDescription d = client.describeTable(r -> r.tableName(table)).table();
        assertThat(d.keySchema())
                .extracting(k -> k.attributeName() + ":" + k.keyType())
                .containsExactlyInAnyOrder("pk:" + KeyType.HASH, "sk:" + KeyType.RANGE);
        assertThat(d.attributeDefinitions())
                .allSatisfy(a -> assertThat(a.attributeType()).isEqualTo(ScalarAttributeType.S));
        Map<String, AttributeValue> record = client.getItem(r -> r.tableName(table)
                        .consistentRead(true)
                        .key(Map.of("pk", AttributeValue.fromS("#layout"), "sk", AttributeValue.fromS("#layout"))))
                .item();
        assertThat(record.get("format").s()).isEqualTo("lake-meta");
        assertThat(record.get("layout_version").n()).isEqualTo("2");
        assertThat(record.get("shards").n()).isEqualTo("16");

        store.create(K, MetaValue.utf8("v"));
        Map<String, AttributeValue> item = client.getItem(r -> r.tableName(table)
                        .consistentRead(true)
                        .key(Map.of("pk", AttributeValue.fromS("tbl#6"), "sk", AttributeValue.fromS("tbl/ns1/orders"))))
                .item();
        assertThat(item.get("v").b().asUtf8String())
                .as("the pinned shard of tbl/ns1/orders is 6 of 16")
                .isEqualTo("v");
    }

    @Test
    void reopening_isIdempotent_andAdoptsTheRecordedShardCount() {
        DynamoDbClient client = client();
        String table = TARGET.uniqueTableName("setup-reopen");
        MetaStore first = open(client, table, 8, true);
        first.create(K, MetaValue.utf8("v"));

        DynamoTableStore again = (DynamoTableStore) open(client, table, null, true);
        assertThat(((V2Layout) again.layout()).shards()).isEqualTo(8);
        assertThat(again.get(K)).contains(MetaValue.utf8("v"));
        assertThat(((V2Layout) ((DynamoTableStore) open(client, table, 8, false)).layout()).shards())
                .isEqualTo(8);
    }

    @Test
    void missingTable_withCreationOff_isAClearError_andCreatesNothing() {
        DynamoDbClient client = client();
        String table = TARGET.uniqueTableName("setup-missing");
        assertThatThrownBy(() -> open(client, table, null, false))
                .isInstanceOf(DynamoStoreException.class)
                .hasMessageContaining(table)
                .hasMessageContaining("does not exist")
                .hasMessageContaining("createTableIfMissing(true)");
        assertThatThrownBy(() -> client.describeTable(r -> r.tableName(table)))
                .isInstanceOf(ResourceNotFoundException.class);
    }

    @Test
    void wrongKeySchema_isAClearError_andWritesNothing() {
        DynamoDbClient client = client();
        String table = TARGET.uniqueTableName("setup-schema");
        client.createTable(r -> r.tableName(table)
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(AttributeDefinition.builder()
                        .attributeName("id")
                        .attributeType(ScalarAttributeType.S)
                        .build())
                .keySchema(KeySchemaElement.builder()
                        .attributeName("id")
                        .keyType(KeyType.HASH)
                        .build()));
        client.waiter().waitUntilTableExists(r -> r.tableName(table));

        assertThatThrownBy(() -> open(client, table, null, true))
                .isInstanceOf(DynamoStoreException.class)
                .hasMessageContaining("id (S, HASH)")
                .hasMessageContaining("pk (S, HASH), sk (S, RANGE)");
        assertThat(client.scan(r -> r.tableName(table)).count()).isZero();
    }

    @Test
    void differentConfiguredShardCount_isAClearError() {
        DynamoDbClient client = client();
        String table = TARGET.uniqueTableName("setup-shards");
        open(client, table, 16, true);
        assertThatThrownBy(() -> open(client, table, 8, true))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("16 shards")
                .hasMessageContaining("shardCount(8)");
    }

    @Test
    void foreignOrNewerLayoutRecord_isAClearError() {
        DynamoDbClient client = client();
        String foreign = TARGET.uniqueTableName("setup-foreign");
        open(client, foreign, null, true);
        client.putItem(r -> r.tableName(foreign)
                .item(Map.of(
                        "pk",
                        AttributeValue.fromS("#layout"),
                        "sk",
                        AttributeValue.fromS("#layout"),
                        "owner",
                        AttributeValue.fromS("someone else"))));
        assertThatThrownBy(() -> open(client, foreign, null, false))
                .isInstanceOf(DynamoStoreException.class)
                .hasMessageContaining("did not write");

        String newer = TARGET.uniqueTableName("setup-newer");
        open(client, newer, null, true);
        client.putItem(r -> r.tableName(newer)
                .item(Map.of(
                        "pk",
                        AttributeValue.fromS("#layout"),
                        "sk",
                        AttributeValue.fromS("#layout"),
                        "format",
                        AttributeValue.fromS("lake-meta"),
                        "layout_version",
                        AttributeValue.fromN("3"),
                        "shards",
                        AttributeValue.fromN("16"))));
        assertThatThrownBy(() -> open(client, newer, null, false))
                .isInstanceOf(DynamoStoreException.class)
                .hasMessageContaining("layout version 3");
    }

    private static final Map<String, AttributeValue> LAYOUT_KEY =
            Map.of("pk", AttributeValue.fromS("#layout"), "sk", AttributeValue.fromS("#layout"));

    private static Map<String, AttributeValue> layoutRecord(DynamoDbClient client, String table) {
        return client.getItem(r -> r.tableName(table).consistentRead(true).key(LAYOUT_KEY))
                .item();
    }

    /** Opens {@code table} expecting a refusal; if it opened, says what the open did instead. */
    private Throwable refusedOpen(DynamoDbClient client, String table, Integer shards) {
        Throwable refused = catchThrowable(() -> open(client, table, shards, false));
        assertThat(refused)
                .as(
                        refused == null
                                ? "build() opened the table and wrote the layout record " + layoutRecord(client, table)
                                : "build()")
                .isInstanceOf(DynamoStoreException.class);
        return refused;
    }

    @Test
    void missingLayoutRecord_onATableHoldingLakeMetaItems_isRefused_sayingHowToRestoreIt_andWritesNothing() {
        DynamoDbTestServer server = TARGET.requireInProcessServer();
        DynamoDbClient client = client();
        String table = TARGET.uniqueTableName("setup-lost-record");
        MetaStore first = open(client, table, 8, true);
        for (int i = 0; i < 30; i++) {
            first.create(MetaKey.of("tbl/ns1/t" + i), MetaValue.utf8("v" + i));
        }
        client.deleteItem(r -> r.tableName(table).key(LAYOUT_KEY));
        TableStatistics before = server.statistics().table(table);

        Throwable unset = refusedOpen(client, table, null);
        assertThat(unset)
                .hasMessageContaining(table)
                .hasMessageContaining("no layout record")
                .hasMessageContaining("shards = 8")
                .hasMessageContaining(
                        "\"pk\":{\"S\":\"#layout\"},\"sk\":{\"S\":\"#layout\"},\"format\":{\"S\":\"lake-meta\"},"
                                + "\"layout_version\":{\"N\":\"2\"},\"shards\":{\"N\":\"8\"}");
        refusedOpen(client, table, 16);
        refusedOpen(client, table, 8);

        assertThat(layoutRecord(client, table)).as("nothing written").isEmpty();
        TableStatistics after = server.statistics().table(table);
        assertThat(after.requests("Scan") - before.requests("Scan"))
                .as("one bounded Scan per open")
                .isEqualTo(3);
        assertThat(after.itemsEvaluated() - before.itemsEvaluated())
                .as("items the three opens read")
                .isLessThanOrEqualTo(3L * TableSetup.ITEMS_SAMPLED);
        assertThat(after.requests("PutItem") - before.requests("PutItem")).isZero();
    }

    @Test
    void missingLayoutRecord_onATableHoldingOtherItems_isRefused_andWritesNothing() {
        DynamoDbClient client = client();
        String table = TARGET.uniqueTableName("setup-foreign-items");
        client.createTable(r -> r.tableName(table)
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(
                        AttributeDefinition.builder()
                                .attributeName("pk")
                                .attributeType(ScalarAttributeType.S)
                                .build(),
                        AttributeDefinition.builder()
                                .attributeName("sk")
                                .attributeType(ScalarAttributeType.S)
                                .build())
                .keySchema(
                        KeySchemaElement.builder()
                                .attributeName("pk")
                                .keyType(KeyType.HASH)
                                .build(),
                        KeySchemaElement.builder()
                                .attributeName("sk")
                                .keyType(KeyType.RANGE)
                                .build()));
        client.waiter().waitUntilTableExists(r -> r.tableName(table));
        client.putItem(r -> r.tableName(table)
                .item(Map.of(
                        "pk",
                        AttributeValue.fromS("USER#42"),
                        "sk",
                        AttributeValue.fromS("PROFILE"),
                        "name",
                        AttributeValue.fromS("Ada"))));

        Throwable refused = refusedOpen(client, table, null);
        assertThat(refused).hasMessageContaining("lake-meta did not write").hasMessageContaining("USER#42");
        assertThat(layoutRecord(client, table)).isEmpty();
    }

    @Test
    void missingLayoutRecord_restoredByAnotherProcessDuringTheCheck_isAdopted() {
        DynamoDbClient admin = client();
        String table = TARGET.uniqueTableName("setup-restored");
        MetaStore first = open(admin, table, 8, true);
        first.create(K, MetaValue.utf8("v"));
        Map<String, AttributeValue> record = layoutRecord(admin, table);
        admin.deleteItem(r -> r.tableName(table).key(LAYOUT_KEY));
        // Right after the opener's Scan found items without a record, someone writes it back.
        DynamoDbClient opener = track(TARGET.newClient(b ->
                b.overrideConfiguration(o -> o.addExecutionInterceptor(new ExecutionInterceptor() {
                    @Override
                    public void afterExecution(Context.AfterExecution context, ExecutionAttributes attributes) {
                        if (context.request() instanceof ScanRequest) {
                            admin.putItem(r -> r.tableName(table).item(record));
                        }
                    }
                }))));

        DynamoTableStore reopened = (DynamoTableStore) open(opener, table, null, false);
        assertThat(((V2Layout) reopened.layout()).shards()).isEqualTo(8);
        assertThat(reopened.get(K)).contains(MetaValue.utf8("v"));
    }

    @Test
    void missingLayoutRecord_onAnEmptyTableCreatedElsewhere_writesIt() {
        DynamoDbClient client = client();
        String table = TARGET.uniqueTableName("setup-empty");
        client.createTable(r -> r.tableName(table)
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(
                        AttributeDefinition.builder()
                                .attributeName("pk")
                                .attributeType(ScalarAttributeType.S)
                                .build(),
                        AttributeDefinition.builder()
                                .attributeName("sk")
                                .attributeType(ScalarAttributeType.S)
                                .build())
                .keySchema(
                        KeySchemaElement.builder()
                                .attributeName("pk")
                                .keyType(KeyType.HASH)
                                .build(),
                        KeySchemaElement.builder()
                                .attributeName("sk")
                                .keyType(KeyType.RANGE)
                                .build()));
        client.waiter().waitUntilTableExists(r -> r.tableName(table));

        assertThat(((V2Layout) ((DynamoTableStore) open(client, table, 4, false)).layout()).shards())
                .isEqualTo(4);
        assertThat(layoutRecord(client, table).get("shards").n()).isEqualTo("4");
    }

    @Test
    void close_withUserSuppliedClient_leavesTheClientOpen() {
        DynamoDbClient client = client();
        MetaStore store = openNew(client, "setup-close", null);
        store.create(K, MetaValue.utf8("v"));

        store.close();
        store.close();

        assertThat(client.describeTable(r -> r.tableName(tableOf(store)))
                        .table()
                        .tableStatus())
                .as("the client still answers")
                .isEqualTo(TableStatus.ACTIVE);
        MetaStore second = open(client, tableOf(store), null, false);
        assertThat(second.get(K)).contains(MetaValue.utf8("v"));
    }

    @Test
    void callsAfterClose_failFast_withoutAnyRequest() {
        DynamoDbTestServer server = TARGET.requireInProcessServer();
        MetaStore store = openNew(client(), "setup-closed", null);
        String table = tableOf(store);
        store.close();
        TableStatistics before = server.statistics().table(table);

        assertThatThrownBy(() -> store.get(K))
                .isInstanceOf(StoreClosedException.class)
                .hasMessageContaining(table);
        assertThatThrownBy(() -> store.create(K, MetaValue.empty())).isInstanceOf(StoreClosedException.class);
        assertThatThrownBy(() -> store.page(KeyPrefix.of("tbl/"), 10)).isInstanceOf(StoreClosedException.class);
        assertThat(requestsSince(before, server, table)).isEmpty();
    }

    @Test
    void pageToken_fromAStoreWithAnotherShardCount_isRejected() {
        DynamoDbClient client = client();
        MetaStore sixteen = openNew(client, "setup-token16", 16);
        MetaStore eight = openNew(client, "setup-token8", 8);
        KeyPrefix prefix = KeyPrefix.of("tbl/");
        sixteen.create(K, MetaValue.utf8("v"));
        Page first = sixteen.page(prefix, 1);
        String token = first.nextToken().orElseThrow();

        assertThatThrownBy(() -> eight.page(PageRequest.after(prefix, token, 1)))
                .isInstanceOf(InvalidPageTokenException.class)
                .hasMessageContaining("dynamodb-v2/shards=8");
        MetaStore otherSixteen = openNew(client, "setup-token16b", 16);
        assertThat(otherSixteen.page(PageRequest.after(prefix, token, 1)).entries())
                .as("the same layout on another table accepts the token")
                .isEmpty();
    }

    @Test
    void layoutRecord_isUnreachableFromAnyPublicKeyOrPage() {
        DynamoDbClient client = client();
        MetaStore store = openNew(client, "setup-hidden", 1);
        assertThatThrownBy(() -> MetaKey.of("#layout/x")).isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> KeyPrefix.of("#layout")).isInstanceOf(InvalidArgumentException.class);
        assertThat(store.page(KeyPrefix.of("layout/"), 100).entries()).isEmpty();
    }
}
