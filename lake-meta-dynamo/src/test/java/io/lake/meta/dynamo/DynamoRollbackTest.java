package io.lake.meta.dynamo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.WriteResult;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * After finalization: rolling back to the legacy authority until the rollback horizon is declared,
 * and what declaring it changes for stores in mode DUAL and V2. Runs on every target.
 */
class DynamoRollbackTest extends DynamoTestSupport {

    private static final MetaKey K = MetaKey.of("tbl/ns1/orders");
    private static final MetaValue A = MetaValue.utf8("a");
    private static final MetaValue B = MetaValue.utf8("b");
    private static final MetaValue C = MetaValue.utf8("c");

    private final DynamoDbClient client = client();
    private final String legacy = TARGET.uniqueTableName("rb-v1");
    private final String table = TARGET.uniqueTableName("rb-v2");
    private DynamoMigration migration;
    private CopyReader copies;

    private MetaStore open(DynamoLayoutMode mode) {
        return track(
                ModeFixture.builder(client, mode, legacy, table, Optional.of(2)).build());
    }

    @BeforeEach
    void finalized() {
        open(DynamoLayoutMode.DUAL).create(K, A);
        migration = DynamoMigration.builder()
                .client(client)
                .legacyTableName(legacy)
                .tableName(table)
                .build();
        while (!migration.backfillPage(100).done()) {
            // next page
        }
        assertThat(migration.finalizeMigration(100).outcome()).isEqualTo(FinalizeResult.Outcome.FINALIZED);
        copies = new CopyReader(client, legacy, table, new V2Layout(2));
    }

    @Test
    void rollback_makesTheLegacyTableTheAuthorityAgain_withEveryWriteMadeUnderTheV2Authority() {
        MetaStore v2Authority = open(DynamoLayoutMode.DUAL);
        assertThat(v2Authority.update(K, A, B)).isEqualTo(WriteResult.applied());

        RollbackResult result = migration.rollback(100);

        assertThat(result.outcome()).isEqualTo(RollbackResult.Outcome.ROLLED_BACK);
        assertThat(result.parity().orElseThrow().clean()).isTrue();
        assertThat(migration.status().completion()).isEmpty();
        assertThat(migration.status().barrier()).isEmpty();
        assertThat(open(DynamoLayoutMode.DUAL).toString()).contains("authority=V1");
        MetaStore v1 = open(DynamoLayoutMode.V1);
        assertThat(v1.get(K)).contains(B);
        assertThat(v2Authority.update(K, B, C))
                .as("a store still running with the v2 authority keeps both copies")
                .isEqualTo(WriteResult.applied());
        assertThat(copies.legacyCopy(K)).contains(C);
        assertThat(migration.rollback(100).outcome()).isEqualTo(RollbackResult.Outcome.NOT_FINALIZED);
        v1.close();
        assertThat(migration.finalizeMigration(100).outcome())
                .as("the rollback sent the backfill back to the start")
                .isEqualTo(FinalizeResult.Outcome.BACKFILL_INCOMPLETE);
        while (!migration.backfillPage(100).done()) {
            // next page
        }
        assertThat(migration.finalizeMigration(100).outcome())
                .as("finalize again")
                .isEqualTo(FinalizeResult.Outcome.FINALIZED);
    }

    @Test
    void afterTheHorizon_noRollback_dualStoresStopWritingTheLegacyTable_andV2Opens() {
        MetaStore runningBefore = open(DynamoLayoutMode.DUAL);
        migration.declareRollbackHorizonPassed();
        migration.declareRollbackHorizonPassed(); // idempotent

        assertThat(migration.rollback(100).outcome()).isEqualTo(RollbackResult.Outcome.HORIZON_PASSED);
        assertThat(migration.status().completion().orElseThrow().rollbackHorizonPassed())
                .isTrue();
        MetaStore v2 = open(DynamoLayoutMode.V2);
        assertThat(v2.update(K, A, B)).isEqualTo(WriteResult.applied());
        assertThat(copies.legacyCopy(K))
                .as("a V2 store writes the v2 table alone")
                .contains(A);

        assertThat(runningBefore.update(K, B, C))
                .as("a DUAL store from before the horizon meets the stale legacy copy,"
                        + " reads the marker again, and writes the v2 table alone")
                .isEqualTo(WriteResult.applied());
        assertThat(runningBefore.toString()).contains("legacy table retired");
        assertThat(copies.v2Copy(K)).contains(C);
        assertThat(copies.legacyCopy(K)).contains(A);
        MetaStore openedAfter = open(DynamoLayoutMode.DUAL);
        assertThat(openedAfter.update(K, C, A)).isEqualTo(WriteResult.applied());
        assertThat(copies.legacyCopy(K)).contains(A);
        assertThat(copies.v2Copy(K)).contains(A);
    }

    @Test
    void beforeTheHorizon_aStaleLegacyCopyIsStillADivergence() {
        MetaStore dual = open(DynamoLayoutMode.DUAL);
        copies.putLegacyCopy(K, C);

        assertThatThrownBy(() -> dual.update(K, A, B)).isInstanceOf(CopiesDivergedException.class);
        assertThat(copies.v2Copy(K)).contains(A);
    }

    @Test
    void declaringTheHorizon_beforeFinalization_isRefused() {
        String otherLegacy = TARGET.uniqueTableName("rb2-v1");
        String otherTable = TARGET.uniqueTableName("rb2-v2");
        track(ModeFixture.builder(client, DynamoLayoutMode.DUAL, otherLegacy, otherTable, Optional.of(2))
                        .build())
                .close();
        DynamoMigration unfinished = DynamoMigration.builder()
                .client(client)
                .legacyTableName(otherLegacy)
                .tableName(otherTable)
                .build();

        assertThatThrownBy(unfinished::declareRollbackHorizonPassed)
                .isInstanceOf(DynamoStoreException.class)
                .hasMessageContaining("not finalized");
        assertThat(unfinished.rollback(10).outcome()).isEqualTo(RollbackResult.Outcome.NOT_FINALIZED);
    }
}
