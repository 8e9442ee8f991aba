package io.lake.meta.dynamo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.OutcomeUnknownException;
import io.lake.meta.StoreUnavailableException;
import io.lake.meta.WriteResult;
import io.lake.meta.testserver.dynamodb.DynamoDbTestServer;
import io.lake.meta.testserver.dynamodb.fault.Fault;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * Dual writes and the backfill when DynamoDB fails: a transaction applied and answered 500 (or
 * its answer lost) is retried by the SDK with the same token and reported applied, once; 500 on
 * every attempt is an unknown outcome; a refusal changes nothing; a backfill page whose copy was
 * applied without an answer still converges. A fault test: it arms the in-process server's fault
 * plan, and is skipped elsewhere.
 */
class DynamoDualFaultTest extends DynamoTestSupport {

    private static final MetaKey K = MetaKey.of("tbl/ns1/orders");
    private static final MetaValue V0 = MetaValue.utf8("v0");
    private static final MetaValue V1 = MetaValue.utf8("v1");

    private DynamoDbTestServer server;
    private DynamoDbClient client;
    private String legacy;
    private String table;
    private MetaStore dual;
    private CopyReader copies;

    @BeforeEach
    void dualStore() {
        server = TARGET.requireInProcessServer();
        client = track(TARGET.newClient(b -> b.overrideConfiguration(o -> o.retryStrategy(r -> r.maxAttempts(4)))));
        legacy = TARGET.uniqueTableName("dfault-v1");
        table = TARGET.uniqueTableName("dfault-v2");
        dual = track(ModeFixture.builder(client, DynamoLayoutMode.DUAL, legacy, table, Optional.of(2))
                .build());
        dual.create(K, V0);
        copies = new CopyReader(client, legacy, table, new V2Layout(2));
    }

    @Test
    void aDualWriteAppliedAndAnswered500_isRetriedWithItsToken_andReportedAppliedOnce() {
        server.faults()
                .arm(Fault.applyThenInternalServerError()
                        .onOperation("TransactWriteItems")
                        .onTable(legacy)
                        .onAttempt(1));

        assertThat(dual.update(K, V0, V1)).isEqualTo(WriteResult.applied());
        assertThat(copies.legacyCopy(K)).contains(V1);
        assertThat(copies.v2Copy(K)).contains(V1);
    }

    @Test
    void aDualWriteAnswered500OnEveryAttempt_isAnUnknownOutcome() {
        server.faults()
                .arm(Fault.internalServerError()
                        .onOperation("TransactWriteItems")
                        .onTable(legacy)
                        .always());

        assertThatThrownBy(() -> dual.update(K, V0, V1)).isInstanceOf(OutcomeUnknownException.class);
        server.faults().clear();
        assertThat(copies.legacyCopy(K)).isEqualTo(copies.v2Copy(K)).as("the copies never differ");
    }

    @Test
    void aDualWriteRefusedWithATransactionConflict_isUnavailable_andMovesNothing() {
        server.faults()
                .arm(Fault.transactionConflict(1)
                        .onOperation("TransactWriteItems")
                        .onTable(legacy));

        assertThatThrownBy(() -> dual.update(K, V0, V1)).isInstanceOf(StoreUnavailableException.class);
        assertThat(copies.legacyCopy(K)).contains(V0);
        assertThat(copies.v2Copy(K)).contains(V0);
    }

    @Test
    void aBackfillCopyAppliedWithoutAnAnswer_converges() {
        for (int i = 0; i < 30; i++) {
            copies.putLegacyCopy(MetaKey.of("tbl/legacy/k" + i), MetaValue.utf8("v" + i));
        }
        DynamoMigration migration = DynamoMigration.builder()
                .client(client)
                .legacyTableName(legacy)
                .tableName(table)
                .build();
        server.faults()
                .arm(Fault.applyThenDropResponse()
                        .onOperation("TransactWriteItems")
                        .onTable(legacy)
                        .times(1));

        BackfillPage page = migration.backfillPage(100);

        assertThat(page.copied() + page.alreadyEqual())
                .as("every legacy item converged")
                .isEqualTo(31);
        assertThat(migration.backfillPage(100).done())
                .as("then one page sweeps the v2 table")
                .isTrue();
        assertThat(migration.finalizeMigration(100).outcome()).isEqualTo(FinalizeResult.Outcome.FINALIZED);
    }
}
