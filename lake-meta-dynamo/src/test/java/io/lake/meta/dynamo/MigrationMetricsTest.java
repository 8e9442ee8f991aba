package io.lake.meta.dynamo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.InvalidArgumentException;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.dynamo.metrics.MigrationMetrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** The migration's meters follow a real migration: a backfill in pages, a resumed job, a finalize. */
class MigrationMetricsTest extends DynamoTestSupport {

    private final DynamoDbClient client = client();
    private final String legacy = TARGET.uniqueTableName("mm-v1");
    private final String table = TARGET.uniqueTableName("mm-v2");

    private double items(SimpleMeterRegistry registry, String kind) {
        return registry.get("lake.meta.migration.items")
                .tags("legacy_table", legacy, "table", table, "kind", kind)
                .functionCounter()
                .count();
    }

    @Test
    void theMeters_followTheBackfillsDurableTotals_andCountFinalizeOutcomes() {
        MetaStore v1 = track(ModeFixture.builder(client, DynamoLayoutMode.V1, legacy, table, Optional.of(4))
                .build());
        for (int i = 0; i < 25; i++) {
            v1.create(MetaKey.of("tbl/ns/k" + i), MetaValue.utf8("v" + i));
        }
        MetaStore dual = track(ModeFixture.builder(client, DynamoLayoutMode.DUAL, legacy, table, Optional.of(4))
                .build());
        dual.create(MetaKey.of("tbl/ns/k99"), MetaValue.utf8("dual")); // already in v2: counted as equal
        DynamoMigration migration = DynamoMigration.builder()
                .client(client)
                .legacyTableName(legacy)
                .tableName(table)
                .build();

        SimpleMeterRegistry first = new SimpleMeterRegistry();
        MigrationMetrics job1 = MigrationMetrics.forTables(legacy, table);
        job1.bindTo(first);
        job1.record(migration.backfillPage(10));
        assertThat(items(first, "scanned")).isEqualTo(10);
        assertThat(first.get("lake.meta.migration.pages").functionCounter().count())
                .isEqualTo(1);
        assertThat(first.get("lake.meta.migration.backfill.done").gauge().value())
                .isZero();

        // a second job (a restarted Kubernetes Job) starts from the durable totals, not from zero
        SimpleMeterRegistry second = new SimpleMeterRegistry();
        MigrationMetrics job2 = MigrationMetrics.forTables(legacy, table);
        job2.bindTo(second);
        job2.record(migration.status());
        assertThat(items(second, "scanned")).isEqualTo(10);
        while (!job2.record(migration.backfillPage(10)).done()) {
            assertThat(second.get("lake.meta.migration.pages").functionCounter().count())
                    .isLessThan(10);
        }
        assertThat(items(second, "scanned")).isEqualTo(26);
        assertThat(items(second, "copied") + items(second, "already_equal") + items(second, "reloaded"))
                .isEqualTo(26);
        assertThat(items(second, "already_equal")).isGreaterThanOrEqualTo(1);
        assertThat(second.get("lake.meta.migration.backfill.done").gauge().value())
                .isEqualTo(1);

        job2.record(migration.finalizeMigration(100));
        job2.record(migration.finalizeMigration(100));
        assertThat(second.get("lake.meta.migration.finalizations")
                        .tags("outcome", "finalized")
                        .counter()
                        .count())
                .isEqualTo(1);
        assertThat(second.get("lake.meta.migration.finalizations")
                        .tags("outcome", "already_finalized")
                        .counter()
                        .count())
                .isEqualTo(1);
    }

    @Test
    void badArguments_areInvalidArguments_andAFinalizeNeedsARegistry() {
        assertThatThrownBy(() -> MigrationMetrics.forTables(null, "t")).isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> MigrationMetrics.forTables("t1", " ")).isInstanceOf(InvalidArgumentException.class);
        MigrationMetrics metrics = MigrationMetrics.forTables("t1", "t2");
        assertThatThrownBy(() -> metrics.bindTo(null)).isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> metrics.record((BackfillPage) null)).isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> metrics.record(new FinalizeResult(FinalizeResult.Outcome.FINALIZED, Optional.empty())))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("bind");
        metrics.bindTo(new SimpleMeterRegistry());
        assertThatThrownBy(() -> metrics.bindTo(new SimpleMeterRegistry())).isInstanceOf(IllegalStateException.class);
    }
}
