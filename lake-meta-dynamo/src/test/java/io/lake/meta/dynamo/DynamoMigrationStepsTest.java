package io.lake.meta.dynamo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The steps an operator really takes, off the runbook's happy path (issue 22): each test walks
 * one sequence through the public API and checks that no mode writes around the protocol and no
 * acknowledged write is undone. Runs on every target unless it needs the in-process server.
 */
class DynamoMigrationStepsTest extends DynamoTestSupport {

    private static final MetaKey K = MetaKey.of("tbl/ns1/orders");
    private static final MetaValue A = MetaValue.utf8("a");
    private static final MetaValue B = MetaValue.utf8("b");
    private static final MetaValue C = MetaValue.utf8("c");

    private final DynamoDbClient client = client();
    private final String legacy = TARGET.uniqueTableName("steps-v1");
    private final String table = TARGET.uniqueTableName("steps-v2");

    private MetaStore open(DynamoLayoutMode mode) {
        return track(
                ModeFixture.builder(client, mode, legacy, table, Optional.of(2)).build());
    }

    private DynamoMigration migration() {
        return DynamoMigration.builder()
                .client(client)
                .legacyTableName(legacy)
                .tableName(table)
                .build();
    }

    private CopyReader copies() {
        return new CopyReader(client, legacy, table, new V2Layout(2));
    }

    /** Defect 1: before the first backfill page, a DUAL store is already writing the v2 table. */
    @Test
    void v2_isRefused_fromTheFirstDualOpenOn_beforeAnyBackfillPage() {
        open(DynamoLayoutMode.V1).create(K, A);
        MetaStore dual = open(DynamoLayoutMode.DUAL);
        assertThat(dual.update(K, A, B).isApplied()).isTrue();

        assertThatThrownBy(() -> open(DynamoLayoutMode.V2))
                .isInstanceOf(ModeRefusedException.class)
                .hasMessageContaining("not finalized")
                .hasMessageContaining("mode DUAL")
                .satisfies(e -> assertThat(((ModeRefusedException) e).reason())
                        .isEqualTo(ModeRefusedException.Reason.MIGRATION_NOT_FINALIZED));
    }

    /** Defect 1: building the migration marks the pair too, before any page. */
    @Test
    void v2_isRefused_onceTheMigrationIsBuilt() {
        open(DynamoLayoutMode.V1).create(K, A);
        open(DynamoLayoutMode.V2).close(); // the v2 table exists and was never a migration's target: opens
        migration();

        assertThatThrownBy(() -> open(DynamoLayoutMode.V2))
                .isInstanceOf(ModeRefusedException.class)
                .hasMessageContaining("not finalized");
    }

    private DynamoMigration migration(io.lake.meta.spi.RaceHooks hooks) {
        return DynamoMigration.builder()
                .client(client)
                .legacyTableName(legacy)
                .tableName(table)
                .raceHooks(hooks)
                .build();
    }

    private static void backfillToTheEnd(DynamoMigration migration) {
        while (!migration.backfillPage(100).done()) {
            // next page
        }
    }

    /** Defect 5: the finalize that published the marker stopped before releasing its barrier; running it again releases it. */
    @Test
    void rerunningAFinalize_whoseBarrierReleaseFailed_releasesThePublishersBarrier() {
        MetaStore dual = open(DynamoLayoutMode.DUAL);
        dual.create(K, A);
        DynamoMigration stopping = migration(point -> {
            if (DynamoMigration.PUBLISHED.equals(point)) {
                throw new SimulatedCrash(point);
            }
        });
        backfillToTheEnd(stopping);
        assertThatThrownBy(() -> stopping.finalizeMigration(100)).isInstanceOf(SimulatedCrash.class);
        assertThat(migration().status().barrier()).as("left behind").isPresent();

        FinalizeResult again = migration().finalizeMigration(100);

        assertThat(again.outcome()).isEqualTo(FinalizeResult.Outcome.ALREADY_FINALIZED);
        assertThat(migration().status().barrier())
                .as("the marker's own barrier, released by the re-run")
                .isEmpty();
        assertThat(dual.update(K, A, B).isApplied()).isTrue();
    }

    /** Defect 5, the other side: a barrier some other finalizer holds is not the re-run's to release. */
    @Test
    void rerunningAFinalize_leavesABarrierTheMarkerDoesNotName() {
        open(DynamoLayoutMode.DUAL).create(K, A);
        MigrationFixtures.finalizeNow(client, legacy, table);
        copies().installBarrier("someone-else");

        assertThat(migration().finalizeMigration(100).outcome()).isEqualTo(FinalizeResult.Outcome.ALREADY_FINALIZED);
        assertThat(migration().status().barrier())
                .map(MigrationStatus.Barrier::holder)
                .contains("someone-else");
    }

    /** Defect 8: the rollback's barrier released under it (no horizon declared) is not "horizon passed". */
    @Test
    void aRollback_whoseBarrierWasReleasedUnderIt_saysSo_notHorizonPassed() {
        open(DynamoLayoutMode.DUAL).create(K, A);
        MigrationFixtures.finalizeNow(client, legacy, table);
        DynamoMigration rollingBack = migration(point -> {
            if (DynamoMigration.ROLLBACK_VERIFIED.equals(point)) {
                migration().releaseBarrier();
            }
        });

        RollbackResult result = rollingBack.rollback(100);

        assertThat(result.outcome()).isEqualTo(RollbackResult.Outcome.BARRIER_LOST);
        assertThat(migration().status().completion()).as("nothing withdrawn").isPresent();
        assertThat(migration().status().barrier()).isEmpty();
    }

    /** Defect 9: a transaction conflict while publishing the marker is retryable, nothing published, the barrier released. */
    @Test
    void aTransactionConflict_whilePublishingTheMarker_isRetryable_andTheNextFinalizeSucceeds() {
        var server = TARGET.requireInProcessServer();
        open(DynamoLayoutMode.DUAL).create(K, A);
        DynamoMigration conflicted = migration(point -> {
            if (DynamoMigration.VERIFIED.equals(point)) {
                server.faults()
                        .arm(io.lake.meta.testserver.dynamodb.fault.Fault.cancellation(0, "TransactionConflict")
                                .onOperation("TransactWriteItems")
                                .onTable(table)
                                .times(1));
            }
        });
        backfillToTheEnd(conflicted);

        assertThatThrownBy(() -> conflicted.finalizeMigration(100))
                .isInstanceOf(io.lake.meta.StoreUnavailableException.class)
                .hasMessageContaining("TransactionConflict")
                .hasMessageContaining("nothing was applied")
                .satisfies(e -> assertThat(((io.lake.meta.MetaStoreException) e).retryable())
                        .isTrue());
        assertThat(migration().status().completion()).isEmpty();
        assertThat(migration().status().barrier()).isEmpty();
        assertThat(migration().finalizeMigration(100).outcome()).isEqualTo(FinalizeResult.Outcome.FINALIZED);
    }

    private static final MetaKey K2 = MetaKey.of("tbl/ns1/payments");
    private static final MetaKey K3 = MetaKey.of("lease/ns1/owner");

    /**
     * Defect 6: during the rollout V1 and DUAL writers coexist. A V1 writer changes (or deletes)
     * only the legacy copy of a key a dual write created; while nothing is finalized the v2 copy is
     * derived data, so dual writes and the backfill repair it from the legacy authority, and the
     * finalize succeeds without a hand repair.
     */
    @Test
    void v1AndDualWriters_coexistDuringTheRollout_andTheMigrationFinalizesWithoutAHandRepair() {
        MetaStore v1 = open(DynamoLayoutMode.V1);
        MetaStore dual = open(DynamoLayoutMode.DUAL);
        dual.create(K, A);
        dual.create(K2, A);
        dual.create(K3, A);
        assertThat(v1.update(K, A, B).isApplied()).isTrue();
        assertThat(v1.update(K2, A, B).isApplied()).isTrue();
        assertThat(v1.delete(K3, A).isApplied()).isTrue();

        assertThat(dual.update(K2, B, C).isApplied())
                .as("a dual write over a legacy-only change")
                .isTrue();
        DynamoMigration migration = migration();
        backfillToTheEnd(migration);

        assertThat(copies().v2Copy(K)).as("repaired from the legacy authority").contains(B);
        assertThat(copies().v2Copy(K2)).contains(C);
        assertThat(copies().v2Copy(K3))
                .as("a v2 copy the legacy table no longer has is removed")
                .isEmpty();
        assertThat(migration.finalizeMigration(100).outcome()).isEqualTo(FinalizeResult.Outcome.FINALIZED);
    }

    /** Defect 7: the authority holds C, the other copy still the caller's expected A: a divergence, not a conflict. */
    @Test
    void aConflictOnTheAuthority_whileTheOtherCopyHoldsTheExpectedBytes_isADivergence() {
        open(DynamoLayoutMode.DUAL).create(K, A);
        MigrationFixtures.finalizeNow(client, legacy, table);
        MetaStore dual = open(DynamoLayoutMode.DUAL); // v2 authority
        copies().putV2Copy(K, C);

        assertThatThrownBy(() -> dual.update(K, A, B)).isInstanceOf(CopiesDivergedException.class);
        assertThatThrownBy(() -> dual.delete(K, A)).isInstanceOf(CopiesDivergedException.class);
        assertThat(copies().legacyCopy(K)).contains(A);
        assertThat(copies().v2Copy(K)).contains(C);
    }

    /**
     * Defect 2: after a rollback a V1 store deletes K; a DUAL store still on the v2 authority must
     * not write K back into the legacy table (everyone's authority again): it learns the marker
     * was withdrawn and conditions its writes on the legacy copy from then on.
     */
    @Test
    void afterARollback_aDualStoreStillOnTheV2Authority_neverUndoesAV1Write() {
        open(DynamoLayoutMode.DUAL).create(K, A);
        open(DynamoLayoutMode.DUAL).create(K2, A);
        MigrationFixtures.finalizeNow(client, legacy, table);
        MetaStore running = open(DynamoLayoutMode.DUAL);
        assertThat(running.toString()).contains("authority=V2");
        assertThat(migration().rollback(100).outcome()).isEqualTo(RollbackResult.Outcome.ROLLED_BACK);
        MetaStore v1 = open(DynamoLayoutMode.V1);
        assertThat(v1.delete(K, A).isApplied()).isTrue();
        assertThat(v1.update(K2, A, B).isApplied()).isTrue();

        assertThat(running.update(K, A, C).isApplied())
                .as("K was deleted by an acknowledged V1 write")
                .isFalse();
        assertThat(running.update(K2, A, C).isApplied())
                .as("K2 was changed by an acknowledged V1 write")
                .isFalse();

        assertThat(copies().legacyCopy(K)).isEmpty();
        assertThat(copies().legacyCopy(K2)).contains(B);
        assertThat(running.get(K2)).as("it reads the legacy authority now").contains(B);
        assertThat(running.update(K2, B, C).isApplied()).isTrue();
        assertThat(v1.get(K2)).contains(C);
    }

    /** Defect 4: after a rollback and writes in V1, backfill and finalize succeed again. */
    @Test
    void afterARollbackAndWritesInV1_theMigrationFinalizesAgain() {
        MetaStore dual = open(DynamoLayoutMode.DUAL);
        dual.create(K, A);
        dual.create(K2, A);
        MigrationFixtures.finalizeNow(client, legacy, table);
        assertThat(migration().rollback(100).outcome()).isEqualTo(RollbackResult.Outcome.ROLLED_BACK);
        MetaStore v1 = open(DynamoLayoutMode.V1);
        v1.update(K, A, B);
        v1.delete(K2, A);
        v1.create(K3, C);
        v1.close();

        DynamoMigration migration = migration();
        backfillToTheEnd(migration);
        FinalizeResult again = migration.finalizeMigration(100);

        assertThat(again.outcome()).as(String.valueOf(again.parity())).isEqualTo(FinalizeResult.Outcome.FINALIZED);
        assertThat(copies().v2Copy(K)).contains(B);
        assertThat(copies().v2Copy(K2)).isEmpty();
        assertThat(copies().v2Copy(K3)).contains(C);
    }

    /** Defect 10: after the horizon the legacy table may be deleted; DUAL stores keep working on the v2 table. */
    @Test
    void afterTheHorizon_theLegacyTableMayBeDeleted_andDualStoresKeepWorking() {
        open(DynamoLayoutMode.DUAL).create(K, A);
        MigrationFixtures.finalizeNow(client, legacy, table);
        MetaStore running = open(DynamoLayoutMode.DUAL);
        migration().declareRollbackHorizonPassed();
        client.deleteTable(r -> r.tableName(legacy));

        assertThat(running.update(K, A, B).isApplied())
                .as("a store running from before the deletion")
                .isTrue();
        MetaStore openedAfter = open(DynamoLayoutMode.DUAL); // createTableIfMissing(true)
        assertThat(openedAfter.update(K, B, C).isApplied()).isTrue();
        assertThat(openedAfter.get(K)).contains(C);
        assertThat(client.listTables().tableNames())
                .as("the legacy table is not re-created")
                .doesNotContain(legacy);
        assertThatThrownBy(() -> open(DynamoLayoutMode.V1)).isInstanceOf(ModeRefusedException.class);
        assertThat(client.listTables().tableNames()).doesNotContain(legacy);
    }

    /**
     * Defect 2, the reads: after a rollback a DUAL store still on the v2 authority that has not
     * written yet must not serve the v2 copy of a key a V1 writer changed since: every read on the
     * v2 authority checks the marker it read under is still the same one.
     */
    @Test
    void afterARollback_aDualStoreStillOnTheV2Authority_readsWhatV1WritersWrote() {
        open(DynamoLayoutMode.DUAL).create(K, A);
        open(DynamoLayoutMode.DUAL).create(K2, A);
        MigrationFixtures.finalizeNow(client, legacy, table);
        MetaStore running = open(DynamoLayoutMode.DUAL);
        assertThat(running.get(K)).contains(A);
        assertThat(migration().rollback(100).outcome()).isEqualTo(RollbackResult.Outcome.ROLLED_BACK);
        MetaStore v1 = open(DynamoLayoutMode.V1);
        assertThat(v1.update(K, A, B).isApplied()).isTrue();
        assertThat(v1.delete(K2, A).isApplied()).isTrue();

        assertThat(running.get(K)).contains(B);
        assertThat(running.getAll(java.util.List.of(K, K2))).containsOnlyKeys(K);
        assertThat(running.page(io.lake.meta.KeyPrefix.of("tbl/"), 10).entries())
                .extracting(e -> e.key())
                .containsExactly(K);
        assertThat(running.toString()).contains("authority=V1");
    }
}
