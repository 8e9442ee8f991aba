package io.lake.meta.dynamo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.Entry;
import io.lake.meta.InvalidArgumentException;
import io.lake.meta.InvalidPageTokenException;
import io.lake.meta.KeyPrefix;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.Page;
import io.lake.meta.PageRequest;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

/** Mode V1 beyond the contract: the legacy table's schema, its Scan pages and what they cost, its tokens. Runs on every target. */
class DynamoV1LayoutTest extends DynamoTestSupport {

    private static final List<String> KEYS = List.of(
            "tbl/ns1/t",
            "tbl/ns1/t0",
            "tbl/ns1/t1",
            "tbl/ns1/ta",
            "tbl/ns1/tz",
            "tbl/ns1/t\uffff",
            "tbl/ns1/t\ud83d\ude00",
            "tbl/ns1/t/deeper/still",
            "tbl/ns1/u",
            "tbl/ns10/t",
            "tbl/ns1x/t",
            "tbl2/ns1/t",
            "tbm/x");

    private MetaStore openV1(DynamoDbClient client, String table) {
        return track(DynamoMetaStore.builder()
                .client(client)
                .mode(DynamoLayoutMode.V1)
                .legacyTableName(table)
                .createTableIfMissing(true)
                .build());
    }

    private static List<Page> readAllPages(MetaStore store, KeyPrefix prefix, int limit) {
        List<Page> pages = new ArrayList<>();
        Optional<PageRequest> request = Optional.of(PageRequest.first(prefix, limit));
        while (request.isPresent()) {
            Page page = store.page(request.get());
            pages.add(page);
            request = request.get().next(page);
            assertThat(pages.size()).as("pages of %s", prefix).isLessThan(10_000);
        }
        return pages;
    }

    @Test
    void everyKeyUnderThePrefix_exactlyOnce_forEveryLimit() {
        MetaStore store = openV1(client(), TARGET.uniqueTableName("v1-paging"));
        for (String k : KEYS) {
            assertThat(store.create(MetaKey.of(k), MetaValue.utf8(k)).isApplied())
                    .isTrue();
        }
        for (String p :
                List.of("tbl/", "tbl/ns1/", "tbl/ns1/t", "tbl/ns1/t/", "tbl/ns1/tz", "tbl/ns1/v", "tbm/", "zzz/")) {
            KeyPrefix prefix = KeyPrefix.of(p);
            Set<MetaKey> expected =
                    KEYS.stream().map(MetaKey::of).filter(prefix::contains).collect(Collectors.toSet());
            for (int limit : new int[] {1, 2, 5, 100}) {
                List<MetaKey> all = new ArrayList<>();
                for (Page page : readAllPages(store, prefix, limit)) {
                    assertThat(page.entries()).hasSizeLessThanOrEqualTo(limit);
                    for (Entry e : page.entries()) {
                        all.add(e.key());
                        assertThat(e.value()).isEqualTo(MetaValue.utf8(e.key().toString()));
                    }
                }
                assertThat(all).as("%s with limit %d", p, limit).doesNotHaveDuplicates();
                assertThat(new HashSet<>(all)).as("%s with limit %d", p, limit).isEqualTo(expected);
            }
        }
    }

    @Test
    void pages_evaluateEveryFamily_andReportItHonestly() {
        MetaStore store = openV1(client(), TARGET.uniqueTableName("v1-cost"));
        for (int i = 0; i < 3; i++) {
            store.create(MetaKey.of("tbl/ns1/t" + i), MetaValue.utf8("x"));
        }
        for (int i = 0; i < 60; i++) {
            store.create(MetaKey.of("other/k" + i), MetaValue.utf8("x"));
        }

        List<Page> pages = readAllPages(store, KeyPrefix.of("tbl/ns1/"), 10);

        long evaluated =
                pages.stream().mapToLong(p -> p.cost().itemsEvaluated()).sum();
        long returned = pages.stream().mapToLong(p -> p.entries().size()).sum();
        assertThat(returned).as("entries returned").isEqualTo(3);
        assertThat(evaluated)
                .as("items evaluated over the whole iteration: the whole table, 63 items")
                .isEqualTo(63);
        assertThat(pages).allSatisfy(p -> assertThat(p.cost().itemsEvaluated()).isLessThanOrEqualTo(10));
        assertThat(pages.size())
                .as("pages: at least one per 10 items of the table")
                .isGreaterThanOrEqualTo(7);
    }

    @Test
    void tokens_areBoundToTheLayout() {
        DynamoDbClient client = client();
        MetaStore v1 = openV1(client, TARGET.uniqueTableName("v1-tokens"));
        MetaStore v2 = openNew(client, "v2-tokens", 1);
        KeyPrefix prefix = KeyPrefix.of("tbl/");
        for (String k : List.of("tbl/a", "tbl/b", "tbl/c")) {
            v1.create(MetaKey.of(k), MetaValue.utf8(k));
            v2.create(MetaKey.of(k), MetaValue.utf8(k));
        }
        String v1Token = v1.page(prefix, 1).nextToken().orElseThrow();
        String v2Token = v2.page(prefix, 1).nextToken().orElseThrow();

        assertThatThrownBy(() -> v2.page(PageRequest.after(prefix, v1Token, 1)))
                .isInstanceOf(InvalidPageTokenException.class);
        assertThatThrownBy(() -> v1.page(PageRequest.after(prefix, v2Token, 1)))
                .isInstanceOf(InvalidPageTokenException.class)
                .hasMessageContaining("another store layout");
    }

    @Test
    void aTokenOfTheEarlierV1Envelope_isRefused_neverAWrongPage() {
        MetaStore v1 = openV1(client(), TARGET.uniqueTableName("v1-earlier-token"));
        KeyPrefix prefix = KeyPrefix.of("tbl/");
        for (String k : List.of("tbl/a", "tbl/b", "tbl/c")) {
            v1.create(MetaKey.of(k), MetaValue.utf8(k));
        }
        for (String position : List.of("tbl/a", "lease/x", "#migration#complete", "x".repeat(2048))) {
            String earlier = earlierV1Token(prefix, position);
            assertThatThrownBy(() -> v1.page(PageRequest.after(prefix, earlier, 1)))
                    .as(position)
                    .isInstanceOf(InvalidPageTokenException.class);
        }
    }

    /**
     * A token as mode V1 issued it before its tokens moved into the SPI's envelope:
     * {@code version(1) | layoutDigest(4) | prefixDigest(8) | positionLength(2) | position | checksum(4)}.
     */
    private static String earlierV1Token(KeyPrefix prefix, String position) {
        byte[] bytes = position.getBytes(StandardCharsets.UTF_8);
        ByteBuffer out = ByteBuffer.allocate(1 + 4 + 8 + 2 + bytes.length + 4);
        out.put((byte) 1)
                .put(sha256(V1Layout.DESCRIPTOR.getBytes(StandardCharsets.UTF_8)), 0, 4)
                .put(sha256(prefix.utf8()), 0, 8)
                .putShort((short) bytes.length)
                .put(bytes);
        out.put(sha256(Arrays.copyOf(out.array(), out.position())), 0, 4);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(out.array());
    }

    private static byte[] sha256(byte[] data) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(data);
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void anExistingLegacyTable_isReadAsItIs() {
        DynamoDbClient client = client();
        String table = TARGET.uniqueTableName("v1-existing");
        client.createTable(r -> r.tableName(table)
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(AttributeDefinition.builder()
                        .attributeName("k")
                        .attributeType(ScalarAttributeType.S)
                        .build())
                .keySchema(KeySchemaElement.builder()
                        .attributeName("k")
                        .keyType(KeyType.HASH)
                        .build()));
        client.waiter().waitUntilTableExists(r -> r.tableName(table));
        client.putItem(r -> r.tableName(table)
                .item(java.util.Map.of(
                        "k",
                        AttributeValue.fromS("tbl/ns1/orders"),
                        "v",
                        AttributeValue.fromB(SdkBytes.fromUtf8String("{\"v\":1}")))));

        MetaStore store = track(DynamoMetaStore.builder()
                .client(client)
                .mode(DynamoLayoutMode.V1)
                .legacyTableName(table)
                .build());

        assertThat(store.get(MetaKey.of("tbl/ns1/orders"))).contains(MetaValue.utf8("{\"v\":1}"));
        assertThat(store.update(MetaKey.of("tbl/ns1/orders"), MetaValue.utf8("{\"v\":1}"), MetaValue.utf8("{\"v\":2}"))
                        .isApplied())
                .isTrue();
        assertThat(client.scan(r -> r.tableName(table)).count())
                .as("no layout record or other item added")
                .isEqualTo(1);
    }

    @Test
    void aV2Table_isRefusedInModeV1_andALegacyTableInModeV2() {
        DynamoDbClient client = client();
        String legacy = TARGET.uniqueTableName("v1-schema");
        openV1(client, legacy).close();
        MetaStore v2 = openNew(client, "v2-schema", null);
        String v2Table = tableOf(v2);

        assertThatThrownBy(() -> DynamoMetaStore.builder()
                        .client(client)
                        .mode(DynamoLayoutMode.V1)
                        .legacyTableName(v2Table)
                        .build())
                .isInstanceOf(DynamoStoreException.class)
                .hasMessageContaining("pk (S, HASH), sk (S, RANGE)")
                .hasMessageContaining("v1 (legacy) layout needs [k (S, HASH)]");
        assertThatThrownBy(() -> DynamoMetaStore.builder()
                        .client(client)
                        .tableName(legacy)
                        .build())
                .isInstanceOf(DynamoStoreException.class)
                .hasMessageContaining("[k (S, HASH)]")
                .hasMessageContaining("v2 layout needs [pk (S, HASH), sk (S, RANGE)]");
    }

    @Test
    void builder_refusesConfigurationsAModeCannotUse() {
        DynamoDbClient client = client();
        assertThatThrownBy(() -> DynamoMetaStore.builder()
                        .client(client)
                        .mode(DynamoLayoutMode.V1)
                        .tableName("t-v2")
                        .build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("legacyTableName is required in mode V1");
        assertThatThrownBy(() -> DynamoMetaStore.builder()
                        .client(client)
                        .mode(DynamoLayoutMode.DUAL)
                        .legacyTableName("t-v1")
                        .build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("tableName is required in mode DUAL");
        assertThatThrownBy(() -> DynamoMetaStore.builder()
                        .client(client)
                        .mode(DynamoLayoutMode.DUAL)
                        .legacyTableName("same")
                        .tableName("same")
                        .build())
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("a migration needs two tables");
        assertThatThrownBy(() -> DynamoMetaStore.builder().mode(null)).isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> DynamoMetaStore.builder().legacyTableName("x"))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("legacy table name 'x'");
        assertThatThrownBy(() ->
                        DynamoMetaStore.builder().mode(DynamoLayoutMode.V1).mode(DynamoLayoutMode.V2))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("mode");
    }
}
