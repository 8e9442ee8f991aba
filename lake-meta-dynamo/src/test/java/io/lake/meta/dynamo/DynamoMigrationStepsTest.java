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
}
