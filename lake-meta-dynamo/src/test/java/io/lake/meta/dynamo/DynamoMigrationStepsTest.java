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
        return track(ModeFixture.builder(client, mode, legacy, table, Optional.of(2)).build());
    }

    private DynamoMigration migration() {
        return DynamoMigration.builder().client(client).legacyTableName(legacy).tableName(table).build();
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

        assertThatThrownBy(() -> open(DynamoLayoutMode.V2)).isInstanceOf(ModeRefusedException.class)
                .hasMessageContaining("not finalized").hasMessageContaining("mode DUAL")
                .satisfies(e -> assertThat(((ModeRefusedException) e).reason())
                        .isEqualTo(ModeRefusedException.Reason.MIGRATION_NOT_FINALIZED));
    }

    /** Defect 1: building the migration marks the pair too, before any page. */
    @Test
    void v2_isRefused_onceTheMigrationIsBuilt() {
        open(DynamoLayoutMode.V1).create(K, A);
        open(DynamoLayoutMode.V2).close(); // the v2 table exists and was never a migration's target: opens
        migration();

        assertThatThrownBy(() -> open(DynamoLayoutMode.V2)).isInstanceOf(ModeRefusedException.class)
                .hasMessageContaining("not finalized");
    }

    private DynamoMigration migration(io.lake.meta.spi.RaceHooks hooks) {
        return DynamoMigration.builder().client(client).legacyTableName(legacy).tableName(table).raceHooks(hooks).build();
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
        assertThat(migration().status().barrier()).as("the marker's own barrier, released by the re-run").isEmpty();
        assertThat(dual.update(K, A, B).isApplied()).isTrue();
    }

    /** Defect 5, the other side: a barrier some other finalizer holds is not the re-run's to release. */
    @Test
    void rerunningAFinalize_leavesABarrierTheMarkerDoesNotName() {
        open(DynamoLayoutMode.DUAL).create(K, A);
        MigrationFixtures.finalizeNow(client, legacy, table);
        copies().installBarrier("someone-else");

        assertThat(migration().finalizeMigration(100).outcome()).isEqualTo(FinalizeResult.Outcome.ALREADY_FINALIZED);
        assertThat(migration().status().barrier()).map(MigrationStatus.Barrier::holder).contains("someone-else");
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
                server.faults().arm(io.lake.meta.testserver.dynamodb.fault.Fault.cancellation(0, "TransactionConflict")
                        .onOperation("TransactWriteItems").onTable(table).times(1));
            }
        });
        backfillToTheEnd(conflicted);

        assertThatThrownBy(() -> conflicted.finalizeMigration(100)).isInstanceOf(io.lake.meta.StoreUnavailableException.class)
                .hasMessageContaining("TransactionConflict").hasMessageContaining("nothing was applied")
                .satisfies(e -> assertThat(((io.lake.meta.MetaStoreException) e).retryable()).isTrue());
        assertThat(migration().status().completion()).isEmpty();
        assertThat(migration().status().barrier()).isEmpty();
        assertThat(migration().finalizeMigration(100).outcome()).isEqualTo(FinalizeResult.Outcome.FINALIZED);
    }
}
