package io.lake.meta.dynamo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.Entry;
import io.lake.meta.InvalidArgumentException;
import io.lake.meta.KeyPrefix;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.Page;
import io.lake.meta.PageRequest;
import io.lake.meta.WriteBarrierException;
import io.lake.meta.WriteResult;
import io.lake.meta.spi.RaceHooks;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.interceptor.SdkExecutionAttribute;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The migration engine: bounded backfill pages with a durable cursor, a crash and replay, a dual
 * writer racing the backfill, finalize with verification, a barrier left behind. Races and crashes
 * are placed with the engine's own pause points (not the server's), so this runs on every target.
 */
class DynamoMigrationTest extends DynamoTestSupport {

    private static final List<String> FAMILIES = List.of("tbl", "lease", "ops");

    private final DynamoDbClient client = client();
    private final String legacy = TARGET.uniqueTableName("mig-v1");
    private final String table = TARGET.uniqueTableName("mig-v2");

    private MetaStore open(DynamoLayoutMode mode) {
        return track(
                ModeFixture.builder(client, mode, legacy, table, Optional.of(4)).build());
    }

    private DynamoMigration migration(RaceHooks hooks) {
        return DynamoMigration.builder()
                .client(client)
                .legacyTableName(legacy)
                .tableName(table)
                .raceHooks(hooks)
                .build();
    }

    /** Writes {@code n} keys per family through a V1 store: the legacy deployment before the migration. */
    private Map<String, String> legacyData(int perFamily) {
        MetaStore v1 = open(DynamoLayoutMode.V1);
        Map<String, String> written = new TreeMap<>();
        for (String family : FAMILIES) {
            for (int i = 0; i < perFamily; i++) {
                String key = family + "/ns" + (i % 3) + "/k" + i;
                v1.create(MetaKey.of(key), MetaValue.utf8("value of " + key));
                written.put(key, "value of " + key);
            }
        }
        v1.close();
        open(DynamoLayoutMode.DUAL).close(); // lays out the v2 table
        return written;
    }

    private static Map<String, String> contents(MetaStore store) {
        Map<String, String> all = new TreeMap<>();
        for (String family : FAMILIES) {
            Optional<PageRequest> request = Optional.of(PageRequest.first(KeyPrefix.of(family + "/"), 500));
            while (request.isPresent()) {
                Page page = store.page(request.get());
                for (Entry e : page.entries()) {
                    all.put(e.key().toString(), e.value().asUtf8());
                }
                request = request.get().next(page);
            }
        }
        return all;
    }

    private BackfillPage backfillToTheEnd(DynamoMigration migration, int pageSize) {
        BackfillPage page;
        do {
            page = migration.backfillPage(pageSize);
            assertThat(page.scanned()).as("items a page evaluated").isLessThanOrEqualTo(pageSize);
        } while (!page.done());
        return page;
    }

    @Test
    void backfillInBoundedPages_thenFinalize_leavesBothTablesEqual_andDualStoresReadV2() {
        Map<String, String> written = legacyData(80);
        DynamoMigration migration = migration(RaceHooks.NONE);

        BackfillPage last = backfillToTheEnd(migration, 40);
        assertThat(last.totals().copied()).isEqualTo(240);
        assertThat(last.totals().scanned()).isEqualTo(240);
        assertThat(last.totals().pages()).isGreaterThanOrEqualTo(6);
        assertThat(migration.backfillPage(40))
                .as("after the end: done, nothing read")
                .isEqualTo(new BackfillPage(0, 0, 0, 0, true, last.totals()));

        FinalizeResult result = migration.finalizeMigration(50);

        assertThat(result.outcome()).isEqualTo(FinalizeResult.Outcome.FINALIZED);
        ParityReport parity = result.parity().orElseThrow();
        assertThat(parity.clean()).isTrue();
        assertThat(parity.legacyItems()).isEqualTo(240);
        assertThat(parity.v2Items()).isEqualTo(240);
        MigrationStatus status = migration.status();
        assertThat(status.barrier()).as("released").isEmpty();
        assertThat(status.completion()).hasValueSatisfying(c -> {
            assertThat(c.items()).isEqualTo(240);
            assertThat(c.digest()).isEqualTo(parity.legacyDigest()).startsWith("sha256-sum:");
        });
        MetaStore dual = open(DynamoLayoutMode.DUAL);
        assertThat(dual.toString()).contains("authority=V2");
        assertThat(contents(dual)).isEqualTo(written);
        migration.declareRollbackHorizonPassed();
        assertThat(contents(open(DynamoLayoutMode.V2))).isEqualTo(written);
        assertThat(migration.finalizeMigration(50).outcome()).isEqualTo(FinalizeResult.Outcome.ALREADY_FINALIZED);
    }

    @Test
    void aCrashAfterCopyingPartOfAPage_isReplayedFromTheSameCursor() {
        legacyData(20); // 60 items: one page of 60 is three groups of at most 25
        AtomicBoolean crashed = new AtomicBoolean();
        DynamoMigration crashing = migration(point -> {
            if (point.equals(Backfill.GROUP_COPIED) && crashed.compareAndSet(false, true)) {
                throw new SimulatedCrash(point);
            }
        });
        assertThatThrownBy(() -> crashing.backfillPage(100)).isInstanceOf(SimulatedCrash.class);
        assertThat(crashing.status().backfill().pages())
                .as("the cursor did not move")
                .isZero();

        BackfillPage replay = migration(RaceHooks.NONE).backfillPage(100);

        assertThat(replay.alreadyEqual())
                .as("the group copied before the crash")
                .isEqualTo(Backfill.GROUP_KEYS);
        assertThat(replay.copied()).isEqualTo(60 - Backfill.GROUP_KEYS);
        assertThat(migration(RaceHooks.NONE).backfillPage(100).done())
                .as("then one page sweeps the v2 table")
                .isTrue();
        assertThat(migration(RaceHooks.NONE).finalizeMigration(100).outcome())
                .isEqualTo(FinalizeResult.Outcome.FINALIZED);
    }

    @Test
    void aDualWriterChangingOrDeletingItemsBetweenTheScanAndTheCopy_isReloaded_neverOverwrittenStale() {
        legacyData(10);
        MetaStore dual = open(DynamoLayoutMode.DUAL);
        MetaKey changed = MetaKey.of("tbl/ns1/k1");
        MetaKey deleted = MetaKey.of("lease/ns2/k2");
        MetaKey created = MetaKey.of("tbl/ns9/new");
        DynamoMigration migration = migration(point -> {
            if (point.equals(Backfill.SCANNED)) {
                assertThat(dual.update(changed, MetaValue.utf8("value of " + changed), MetaValue.utf8("changed"))
                                .isApplied())
                        .isTrue();
                assertThat(dual.delete(deleted, MetaValue.utf8("value of " + deleted))
                                .isApplied())
                        .isTrue();
                dual.create(created, MetaValue.utf8("new")); // in both copies already
            }
        });

        BackfillPage page = migration.backfillPage(1000);

        assertThat(page.reloaded())
                .as("the changed and the deleted item were read again")
                .isEqualTo(2);
        assertThat(page.alreadyEqual())
                .as("the changed item, which the dual write put in v2")
                .isEqualTo(1);
        assertThat(page.copied()).isEqualTo(28);
        CopyReader copies = new CopyReader(client, legacy, table, new V2Layout(4));
        assertThat(copies.v2Copy(changed)).contains(MetaValue.utf8("changed"));
        assertThat(copies.v2Copy(deleted))
                .as("not resurrected from the stale scan")
                .isEmpty();
        assertThat(copies.v2Copy(created)).contains(MetaValue.utf8("new"));
        assertThat(migration.backfillPage(1000).done())
                .as("then one page sweeps the v2 table")
                .isTrue();
        assertThat(DynamoMigration.builder()
                        .client(client)
                        .legacyTableName(legacy)
                        .tableName(table)
                        .build()
                        .finalizeMigration(1000)
                        .outcome())
                .isEqualTo(FinalizeResult.Outcome.FINALIZED);
    }

    /**
     * Found by the dual-write fault storm: the reload of an item deleted since the Scan read the
     * legacy copy (absent), then the v2 copy, as two requests; a dual writer re-creating the key
     * in between (both copies, one transaction) made the v2 copy look like a divergence. The reload
     * reads both copies at one instant, so the create after it is simply not the backfill's to copy.
     */
    @Test
    void aKeyDeletedAfterTheScan_andCreatedAgainWhileTheBackfillReadsItBack_isNoDivergence() {
        legacyData(10);
        MetaStore dual = open(DynamoLayoutMode.DUAL);
        MetaKey key = MetaKey.of("lease/ns2/k2");
        MetaValue scanned = MetaValue.utf8("value of " + key);
        AtomicBoolean deletedSinceTheScan = new AtomicBoolean();
        AtomicBoolean recreated = new AtomicBoolean();
        ExecutionInterceptor recreateAfterTheFirstRead = new ExecutionInterceptor() {
            @Override
            public void afterExecution(Context.AfterExecution context, ExecutionAttributes attributes) {
                String op = attributes.getAttribute(SdkExecutionAttribute.OPERATION_NAME);
                if (deletedSinceTheScan.get()
                        && (op.equals("GetItem") || op.equals("TransactGetItems"))
                        && recreated.compareAndSet(false, true)) {
                    assertThat(dual.create(key, MetaValue.utf8("created again")).isApplied())
                            .isTrue();
                }
            }
        };
        DynamoDbClient engineClient = track(TARGET.newClient(
                b -> b.overrideConfiguration(o -> o.addExecutionInterceptor(recreateAfterTheFirstRead))));
        DynamoMigration migration = DynamoMigration.builder()
                .client(engineClient)
                .legacyTableName(legacy)
                .tableName(table)
                .raceHooks(point -> {
                    if (point.equals(Backfill.SCANNED)) {
                        assertThat(dual.delete(key, scanned).isApplied()).isTrue();
                        deletedSinceTheScan.set(true);
                    }
                })
                .build();

        BackfillPage page = migration.backfillPage(1000);

        assertThat(recreated)
                .as("the dual writer ran while the backfill read the key back")
                .isTrue();
        assertThat(page.reloaded()).isEqualTo(1);
        assertThat(migration.backfillPage(1000).done())
                .as("then one page sweeps the v2 table")
                .isTrue();
        CopyReader copies = new CopyReader(client, legacy, table, new V2Layout(4));
        assertThat(copies.legacyCopy(key)).contains(MetaValue.utf8("created again"));
        assertThat(copies.v2Copy(key)).contains(MetaValue.utf8("created again"));
        assertThat(migration(RaceHooks.NONE).finalizeMigration(1000).outcome())
                .isEqualTo(FinalizeResult.Outcome.FINALIZED);
    }

    @Test
    void aVerificationThatFindsDifferences_publishesNothing_andNamesEveryKey() {
        legacyData(10);
        DynamoMigration migration = migration(RaceHooks.NONE);
        backfillToTheEnd(migration, 1000);
        CopyReader copies = new CopyReader(client, legacy, table, new V2Layout(4));
        copies.putV2Copy(MetaKey.of("tbl/ns0/k0"), MetaValue.utf8("edited by hand"));
        copies.deleteV2Copy(MetaKey.of("ops/ns1/k1"));
        copies.putV2Copy(MetaKey.of("tbl/only/in-v2"), MetaValue.utf8("x"));

        FinalizeResult result = migration.finalizeMigration(7);

        assertThat(result.outcome()).isEqualTo(FinalizeResult.Outcome.VERIFICATION_FAILED);
        ParityReport parity = result.parity().orElseThrow();
        assertThat(parity.clean()).isFalse();
        assertThat(parity.differenceCount()).isEqualTo(3);
        assertThat(parity.differences())
                .containsExactlyInAnyOrder(
                        new ParityReport.Difference("tbl/ns0/k0", ParityReport.Kind.DIFFERENT_BYTES),
                        new ParityReport.Difference("ops/ns1/k1", ParityReport.Kind.MISSING_IN_V2),
                        new ParityReport.Difference("tbl/only/in-v2", ParityReport.Kind.MISSING_IN_LEGACY));
        MigrationStatus status = migration.status();
        assertThat(status.completion()).as("nothing published").isEmpty();
        assertThat(status.barrier()).as("released").isEmpty();
        assertThat(open(DynamoLayoutMode.DUAL).toString()).contains("authority=V1");
    }

    @Test
    void aBarrierLeftByAFinalizerThatStopped_isReported_refusesWrites_andCanBeReleased() {
        legacyData(5);
        MetaStore dual = open(DynamoLayoutMode.DUAL);
        DynamoMigration stopping = migration(point -> {
            if (point.equals(DynamoMigration.VERIFIED)) {
                throw new SimulatedCrash(point);
            }
        });
        backfillToTheEnd(stopping, 1000);
        assertThatThrownBy(() -> stopping.finalizeMigration(1000)).isInstanceOf(SimulatedCrash.class);

        DynamoMigration operator = migration(RaceHooks.NONE);
        MigrationStatus status = operator.status();
        assertThat(status.barrier()).isPresent();
        assertThat(status.completion()).isEmpty();
        MetaKey k = MetaKey.of("tbl/ns0/k0");
        assertThatThrownBy(() -> dual.update(k, MetaValue.utf8("value of " + k), MetaValue.utf8("x")))
                .isInstanceOf(WriteBarrierException.class);
        assertThatThrownBy(() -> operator.finalizeMigration(1000))
                .isInstanceOf(WriteBarrierException.class)
                .hasMessageContaining(status.barrier().get().holder())
                .hasMessageContaining("dynamo-migrate release-barrier");

        assertThat(operator.releaseBarrier()).isEqualTo(status.barrier());
        assertThat(operator.releaseBarrier()).isEmpty();
        assertThat(dual.update(k, MetaValue.utf8("value of " + k), MetaValue.utf8("x")))
                .isEqualTo(WriteResult.applied());
        assertThat(operator.finalizeMigration(1000).outcome()).isEqualTo(FinalizeResult.Outcome.FINALIZED);
    }

    @Test
    void finalize_beforeTheBackfillReachedTheEnd_doesNothing_andPageSizesAreBounded() {
        legacyData(5);
        DynamoMigration migration = migration(RaceHooks.NONE);
        migration.backfillPage(2);

        assertThat(migration.finalizeMigration(10).outcome()).isEqualTo(FinalizeResult.Outcome.BACKFILL_INCOMPLETE);
        assertThat(migration.status().barrier()).isEmpty();
        for (int bad : new int[] {0, -1, DynamoMigration.MAX_PAGE_SIZE + 1}) {
            assertThatThrownBy(() -> migration.backfillPage(bad)).isInstanceOf(InvalidArgumentException.class);
            assertThatThrownBy(() -> migration.finalizeMigration(bad)).isInstanceOf(InvalidArgumentException.class);
        }
        assertThat(migration.status().backfill().pages()).isEqualTo(1);
    }

    @Test
    void builder_checksItsConfiguration() {
        assertThatThrownBy(() -> DynamoMigration.builder()
                        .client(client)
                        .legacyTableName("same")
                        .tableName("same")
                        .build())
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("two tables");
        assertThatThrownBy(() -> DynamoMigration.builder()
                        .client(client)
                        .tableName("t-v2")
                        .build())
                .isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> DynamoMigration.builder().legacyTableName("x"))
                .isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> DynamoMigration.builder().shardCount(0)).isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> DynamoMigration.builder()
                        .client(client)
                        .legacyTableName(TARGET.uniqueTableName("absent"))
                        .tableName(table)
                        .build())
                .isInstanceOf(DynamoStoreException.class)
                .hasMessageContaining("does not exist");
    }
}
