package io.lake.meta.dynamo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.InvalidArgumentException;
import io.lake.meta.KeyPrefix;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** Opening each mode: the read authority picked from the completion marker, V1 refused after it, internal records out of reach. Runs on every target. */
class DynamoModeStartupTest extends DynamoTestSupport {

    private static final MetaKey K = MetaKey.of("tbl/ns1/orders");
    private static final MetaValue A = MetaValue.utf8("a");

    private final DynamoDbClient client = client();
    private final String legacy = TARGET.uniqueTableName("start-v1");
    private final String table = TARGET.uniqueTableName("start-v2");

    private MetaStore open(DynamoLayoutMode mode) {
        return track(
                ModeFixture.builder(client, mode, legacy, table, Optional.of(2)).build());
    }

    @Test
    void dual_readsTheLegacyTable_untilTheMarkerExists_thenTheV2Table() {
        MetaStore before = open(DynamoLayoutMode.DUAL);
        assertThat(before.toString()).contains("authority=V1").endsWith("layout=dynamodb-v1]");
        before.create(K, A);

        MigrationFixtures.finalizeNow(client, legacy, table);
        MetaStore after = open(DynamoLayoutMode.DUAL);

        assertThat(after.toString()).contains("authority=V2").endsWith("layout=dynamodb-v2/shards=2]");
        assertThat(after.get(K)).contains(A);
        assertThat(before.toString())
                .as("a running store keeps the authority it opened with")
                .contains("authority=V1");
    }

    @Test
    void v1_isRefusedOnceTheMarkerExists_sayingWhy_andV2AndDualStillOpen() {
        open(DynamoLayoutMode.DUAL).close();
        open(DynamoLayoutMode.V1).close();
        MigrationFixtures.finalizeNow(client, legacy, table);

        assertThatThrownBy(() -> open(DynamoLayoutMode.V1))
                .isInstanceOf(DynamoStoreException.class)
                .hasMessageContaining("completion marker")
                .hasMessageContaining("mode V1 will not open it")
                .hasMessageContaining("changes only the legacy table after finalization");
        open(DynamoLayoutMode.DUAL);
    }

    @Test
    void v2_opensAMigrationsTarget_onlyOnceTheRollbackHorizonWasDeclared() {
        open(DynamoLayoutMode.DUAL).close();
        DynamoMigration migration = DynamoMigration.builder()
                .client(client)
                .legacyTableName(legacy)
                .tableName(table)
                .build();
        migration.backfillPage(1);
        assertThatThrownBy(() -> open(DynamoLayoutMode.V2))
                .as("backfill started")
                .isInstanceOf(DynamoStoreException.class)
                .hasMessageContaining("not finalized")
                .hasMessageContaining("mode DUAL");
        while (!migration.backfillPage(100).done()) {
            // next page
        }
        migration.finalizeMigration(100);
        assertThatThrownBy(() -> open(DynamoLayoutMode.V2))
                .as("finalized")
                .isInstanceOf(DynamoStoreException.class)
                .hasMessageContaining("rollback horizon was not declared passed")
                .hasMessageContaining("dynamo-migrate declare-horizon");

        migration.declareRollbackHorizonPassed();

        open(DynamoLayoutMode.V2);
        assertThat(open(DynamoLayoutMode.DUAL).toString()).contains("authority=V2 (legacy table retired)");
    }

    @Test
    void dual_isRefused_whenOnlyOneTableHoldsTheMarker() {
        open(DynamoLayoutMode.DUAL).close();
        client.putItem(r -> r.tableName(table).item(MigrationRecords.v2Key(MigrationRecords.COMPLETE)));

        assertThatThrownBy(() -> open(DynamoLayoutMode.DUAL))
                .isInstanceOf(DynamoStoreException.class)
                .hasMessageContaining("present in the v2 table")
                .hasMessageContaining("absent in the legacy table");
    }

    @Test
    void internalRecords_areOutOfReachOfEveryPublicKey() {
        MetaStore dual = open(DynamoLayoutMode.DUAL);
        dual.create(K, A);
        MigrationFixtures.finalizeNow(client, legacy, table); // the cursor and both markers
        DynamoMigration.builder()
                .client(client)
                .legacyTableName(legacy)
                .tableName(table)
                .build()
                .declareRollbackHorizonPassed();
        new CopyReader(client, legacy, table, new V2Layout(2)).installBarrier("someone");

        for (String internal :
                List.of(MigrationRecords.V1_COMPLETE, MigrationRecords.V2_HASH, "#layout", "#migration/x")) {
            assertThatThrownBy(() -> MetaKey.of(internal)).isInstanceOf(InvalidArgumentException.class);
            assertThatThrownBy(() -> KeyPrefix.of(internal)).isInstanceOf(InvalidArgumentException.class);
        }
        MetaStore v2 = open(DynamoLayoutMode.V2);
        for (MetaStore store : List.of(dual, v2)) {
            assertThat(store.page(KeyPrefix.of("tbl/"), 100).entries())
                    .extracting(e -> e.key().toString())
                    .containsExactly(K.toString());
        }
    }
}
