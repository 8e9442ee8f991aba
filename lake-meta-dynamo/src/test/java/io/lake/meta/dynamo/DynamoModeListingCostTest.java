package io.lake.meta.dynamo;

import static org.assertj.core.api.Assertions.assertThat;

import io.lake.meta.KeyPrefix;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.Page;
import io.lake.meta.PageRequest;
import io.lake.meta.Transaction;
import io.lake.meta.dynamo.ModeFixture.Opened;
import io.lake.meta.dynamo.ModeFixture.TestedMode;
import io.lake.meta.testserver.dynamodb.DynamoDbTestServer;
import io.lake.meta.testserver.dynamodb.stats.TableStatistics;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every mode that reads the v2 layout (V2, and DUAL once the v2 copy is the authority) pages
 * through {@link ShardedPageReader}: a full listing of a 5-key family on 16 shards is one page
 * call of 16 Queries (one per shard) that evaluates the 5 items, not 16 page calls (DUAL adds one
 * GetItem of the completion marker, which proves the v2 copy was still the authority).
 */
class DynamoModeListingCostTest extends DynamoTestSupport {

    @ParameterizedTest
    @EnumSource(
            value = TestedMode.class,
            names = {"V2", "DUAL_V2_AUTHORITY"})
    void aFiveKeyFamilyOnSixteenShards_isOnePageCall(TestedMode mode) {
        DynamoDbTestServer server = TARGET.requireInProcessServer();
        Opened opened = ModeFixture.open(client(), TARGET, mode, Optional.of(16), "mode-listing");
        try (MetaStore store = opened.store()) {
            Transaction.Builder load = Transaction.builder();
            for (int i = 0; i < 5; i++) {
                load.create(MetaKey.of("tbl/k" + i), MetaValue.utf8("v" + i));
            }
            load.create(MetaKey.of("noise/k"), MetaValue.utf8("other family"));
            assertThat(store.transact(load.build()).isApplied()).isTrue();

            TableStatistics before = server.statistics().table(opened.table());
            Page page = store.page(PageRequest.first(KeyPrefix.of("tbl/"), 1000));
            TableStatistics after = server.statistics().table(opened.table());

            assertThat(page.entries()).hasSize(5);
            assertThat(page.nextToken())
                    .as("the listing ended in its first call")
                    .isEmpty();
            assertThat(after.requests("Query") - before.requests("Query")).isEqualTo(16);
            // DUAL on the v2 authority adds one GetItem of the completion marker per read (a rollback check)
            int markerChecks = mode == TestedMode.DUAL_V2_AUTHORITY ? 1 : 0;
            assertThat(after.requests("GetItem") - before.requests("GetItem")).isEqualTo(markerChecks);
            assertThat(page.cost().requests()).isEqualTo(16 + markerChecks);
            assertThat(page.cost().itemsEvaluated()).isEqualTo(5);
        }
    }
}
