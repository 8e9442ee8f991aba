package io.lake.meta.dynamo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.WriteBarrierException;
import io.lake.meta.WriteResult;
import io.lake.meta.testkit.PausePoints;
import io.lake.meta.testserver.dynamodb.DynamoDbTestServer;
import io.lake.meta.testserver.dynamodb.ServerHooks;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * A dual writer racing the installation of the finalizer's write barrier, proven by ordering: one
 * of the two is held inside the in-process server after its conditions passed
 * ({@link ServerHooks#WRITE_CHECKED}, commit lock held) while the other is sent. A write that
 * committed before the barrier is in the verified content; a write after it is refused and moves
 * nothing. A race test: it needs the in-process server's hook, and is skipped elsewhere.
 */
class DynamoMigrationRaceTest extends DynamoTestSupport {

    private static final String HELD = "held";
    private static final MetaKey K = MetaKey.of("tbl/ns1/orders");
    private static final MetaValue V0 = MetaValue.utf8("v0");
    private static final MetaValue V1 = MetaValue.utf8("v1");

    private DynamoDbTestServer server;
    private final PausePoints points = new PausePoints();
    private DynamoDbClient client;
    private String legacy;
    private String table;
    private MetaStore dual;
    private CopyReader copies;
    private DynamoMigration migration;

    @BeforeEach
    void migratedUpToFinalize() {
        server = TARGET.requireInProcessServer();
        client = track(TARGET.newParkingClient());
        legacy = TARGET.uniqueTableName("race-v1");
        table = TARGET.uniqueTableName("race-v2");
        dual = track(ModeFixture.builder(client, DynamoLayoutMode.DUAL, legacy, table, Optional.of(2))
                .build());
        for (int i = 0; i < 20; i++) {
            dual.create(MetaKey.of("tbl/ns1/k" + i), MetaValue.utf8("v" + i));
        }
        dual.create(K, V0);
        copies = new CopyReader(client, legacy, table, new V2Layout(2));
        migration = DynamoMigration.builder()
                .client(client)
                .legacyTableName(legacy)
                .tableName(table)
                .build();
        while (!migration.backfillPage(100).done()) {
            // next page
        }
    }

    /** Holds the first write of {@code operation} on the migration's tables, once armed. */
    private void holdFirst(String operation) {
        server.hooks(new ServerHooks() {
            @Override
            public void reached(String point) {}

            @Override
            public void reached(String point, String op, Set<String> tables) {
                if (ServerHooks.WRITE_CHECKED.equals(point)
                        && op.equals(operation)
                        && (tables.contains(legacy) || tables.contains(table))) {
                    points.reached(HELD);
                }
            }
        });
    }

    @AfterEach
    void removeHooks() {
        if (server != null) {
            server.hooks(ServerHooks.NONE);
        }
    }

    @Test
    void aDualWriteHeldInsideItsCommit_whenTheBarrierIsInstalled_isInTheVerifiedContent() throws Exception {
        holdFirst("TransactWriteItems");
        PausePoints.Pause pause = points.arm(HELD);
        Racing<WriteResult> writer = Racing.start("dual writer", () -> dual.update(K, V0, V1));
        pause.awaitArrival();

        Racing<FinalizeResult> finalizer = Racing.start("finalizer", () -> migration.finalizeMigration(100))
                .awaitParkedOrDone();
        assertThat(finalizer.isDone())
                .as("the finalizer installed its barrier while a dual write was held")
                .isFalse();
        pause.release();

        assertThat(writer.result()).isEqualTo(WriteResult.applied());
        FinalizeResult result = finalizer.result();
        assertThat(result.outcome()).isEqualTo(FinalizeResult.Outcome.FINALIZED);
        assertThat(result.parity().orElseThrow().legacyItems()).isEqualTo(21);
        assertThat(copies.legacyCopy(K)).contains(V1);
        assertThat(copies.v2Copy(K)).contains(V1);
    }

    @Test
    void aDualWriteSentWhileTheBarrierIsBeingInstalled_isRefusedRetryably_andMovesNothing() throws Exception {
        holdFirst("PutItem");
        PausePoints.Pause pause = points.arm(HELD);
        Racing<FinalizeResult> finalizer = Racing.start("finalizer", () -> migration.finalizeMigration(100));
        pause.awaitArrival();

        Racing<WriteResult> writer =
                Racing.start("dual writer", () -> dual.update(K, V0, V1)).awaitParkedOrDone();
        assertThat(writer.isDone())
                .as("the dual write finished while the barrier's installation was held")
                .isFalse();
        pause.release();

        Throwable refused = catchThrowable(writer::result);
        assertThat(refused).hasCauseInstanceOf(WriteBarrierException.class);
        assertThat(copies.legacyCopy(K)).contains(V0);
        assertThat(copies.v2Copy(K)).contains(V0);
        assertThat(finalizer.result().outcome()).isEqualTo(FinalizeResult.Outcome.FINALIZED);
        assertThat(dual.update(K, V0, V1))
                .as("after the barrier was released, the retry applies")
                .isEqualTo(WriteResult.applied());
        assertThat(copies.legacyCopy(K)).contains(V1);
        assertThat(copies.v2Copy(K)).contains(V1);
    }
}
