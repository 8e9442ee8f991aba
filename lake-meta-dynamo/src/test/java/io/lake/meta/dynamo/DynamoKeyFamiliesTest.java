package io.lake.meta.dynamo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.spi.KeyFamilies;
import io.lake.meta.testserver.dynamodb.DynamoDbTestServer;
import io.lake.meta.testserver.dynamodb.stats.TableStatistics;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awssdk.core.SdkRequest;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;

/**
 * {@link KeyFamilies} on DynamoDB beyond the contract's group: what it costs (one Scan of the
 * whole table, page after page, projecting the hash key alone), which table it reads in DUAL, and
 * how the layouts read a family out of a hash key.
 */
class DynamoKeyFamiliesTest extends DynamoTestSupport {

    /** 250 KB (near the value limit): five items pass the 1 MB a Scan response holds at most. */
    private static final int LARGE_BYTES = 250_000;

    private static final MetaValue LARGE = MetaValue.of(new byte[LARGE_BYTES]);
    private static final int LARGE_ITEMS = 8;

    private final List<ScanRequest> scans = new CopyOnWriteArrayList<>();
    private DynamoDbTestServer server;
    private DynamoDbClient client;

    @BeforeEach
    void recordingClient() {
        server = TARGET.requireInProcessServer();
        client = track(TARGET.newClient(b ->
                b.overrideConfiguration(o -> o.addExecutionInterceptor(new ExecutionInterceptor() {
                    @Override
                    public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
                        SdkRequest request = context.request();
                        if (request instanceof ScanRequest scan) {
                            scans.add(scan);
                        }
                    }
                }))));
    }

    @ParameterizedTest
    @EnumSource(value = ModeFixture.TestedMode.class)
    void families_scanTheWholeTable_pageAfterPage_projectingTheHashKeyAlone(ModeFixture.TestedMode mode) {
        ModeFixture.Opened opened = ModeFixture.open(client, TARGET, mode, Optional.of(2), "families-cost");
        MetaStore store = track(opened.store());
        for (int i = 0; i < LARGE_ITEMS; i++) {
            assertThat(store.create(MetaKey.of("big/" + i), LARGE).isApplied()).isTrue();
        }
        store.create(MetaKey.of("aa/first"), MetaValue.utf8("a"));
        store.create(MetaKey.of("zz/last"), MetaValue.utf8("z"));
        boolean legacyAuthority = mode == ModeFixture.TestedMode.V1 || mode == ModeFixture.TestedMode.DUAL_V1_AUTHORITY;
        String read = legacyAuthority ? opened.legacyTable() : opened.table();
        String other = legacyAuthority ? opened.table() : opened.legacyTable();
        long itemsInTable = client.scanPaginator(r -> r.tableName(read).consistentRead(true)).stream()
                .mapToLong(ScanResponse::scannedCount)
                .sum();
        TableStatistics before = server.statistics().table(read);
        TableStatistics otherBefore = other == null ? null : server.statistics().table(other);
        scans.clear();

        assertThat(KeyFamilies.of(store).orElseThrow().families()).containsExactly("aa", "big", "zz");

        TableStatistics after = server.statistics().table(read);
        assertThat(after.requests("Scan") - before.requests("Scan"))
                .as("Scans: the 2 MB table takes at least two")
                .isEqualTo(scans.size())
                .isGreaterThanOrEqualTo(2);
        // DUAL on the v2 authority checks the completion marker after the read: one GetItem
        int markerChecks = mode == ModeFixture.TestedMode.DUAL_V2_AUTHORITY ? 1 : 0;
        assertThat(after.requests("GetItem") - before.requests("GetItem")).isEqualTo(markerChecks);
        assertThat(after.itemsEvaluated() - before.itemsEvaluated())
                .as("every item of the table is read")
                .isEqualTo(itemsInTable + markerChecks);
        assertThat(after.readCapacityUnits() - before.readCapacityUnits())
                .as("read capacity: the items' full size, not the projection's")
                .isGreaterThan(LARGE_ITEMS * LARGE_BYTES / 4096.0);
        String hash = legacyAuthority ? V1Layout.HASH : V2Layout.HASH;
        assertThat(scans).allSatisfy(scan -> {
            assertThat(scan.tableName()).isEqualTo(read);
            assertThat(scan.consistentRead()).isTrue();
            assertThat(scan.projectionExpression()).isEqualTo("#h");
            assertThat(scan.expressionAttributeNames()).isEqualTo(Map.of("#h", hash));
        });
        assertThat(scans.get(0).hasExclusiveStartKey()).isFalse();
        assertThat(scans.subList(1, scans.size()))
                .allSatisfy(scan -> assertThat(scan.hasExclusiveStartKey()).isTrue());
        if (other != null) {
            assertThat(server.statistics().table(other).requests("Scan"))
                    .as("the other copy is not scanned")
                    .isEqualTo(otherBefore.requests("Scan"));
        }
    }

    @Test
    void anItemLakeMetaDidNotWrite_isReported_notListed() {
        DynamoTableStore store = openNew(client, "families-foreign", 2);
        store.create(MetaKey.of("tbl/a"), MetaValue.utf8("a"));
        client.putItem(r -> r.tableName(tableOf(store))
                .item(Map.of(
                        V2Layout.HASH,
                        AttributeValue.fromS("USER#42"),
                        V2Layout.RANGE,
                        AttributeValue.fromS("profile"),
                        ItemLayout.VALUE,
                        AttributeValue.fromS("x"))));

        assertThatThrownBy(store::families)
                .isInstanceOf(DynamoStoreException.class)
                .hasMessageContaining("USER#42")
                .hasMessageContaining("lake-meta did not write");
    }

    @Test
    void theLayouts_readAFamilyOutOfAHashKey_andSkipInternalRecords() {
        V2Layout v2 = new V2Layout(16);
        assertThat(v2.familyOfHashKey("tbl#7", "t")).isEqualTo("tbl");
        assertThat(v2.familyOfHashKey("a_b-0#15", "t")).isEqualTo("a_b-0");
        assertThat(v2.familyOfHashKey(V2Layout.LAYOUT_KEY, "t")).isNull();
        assertThat(v2.familyOfHashKey(MigrationRecords.V2_HASH, "t")).isNull();
        V1Layout v1 = V1Layout.INSTANCE;
        assertThat(v1.familyOfHashKey("tbl/ns1/orders", "t")).isEqualTo("tbl");
        assertThat(v1.familyOfHashKey("a/ünïcødé#/x", "t")).isEqualTo("a");
        assertThat(v1.familyOfHashKey(MigrationRecords.V1_COMPLETE, "t")).isNull();
        for (String foreign : List.of("USER#42", "tbl", "x".repeat(33) + "#1", "_tbl#1")) {
            assertThatThrownBy(() -> v2.familyOfHashKey(foreign, "t"))
                    .as(foreign)
                    .isInstanceOf(DynamoStoreException.class);
        }
        for (String foreign : List.of("USER/42", "tbl", "/x", "Tbl/x")) {
            assertThatThrownBy(() -> v1.familyOfHashKey(foreign, "t"))
                    .as(foreign)
                    .isInstanceOf(DynamoStoreException.class);
        }
    }
}
