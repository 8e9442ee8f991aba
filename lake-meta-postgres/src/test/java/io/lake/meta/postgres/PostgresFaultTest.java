package io.lake.meta.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.OutcomeUnknownException;
import io.lake.meta.StoreUnavailableException;
import io.lake.meta.Transaction;
import io.lake.meta.TransactionResult;
import io.lake.meta.WriteResult;
import io.lake.meta.spi.RaceHooks;
import io.lake.meta.testkit.PausePoints;
import io.lake.meta.testkit.postgres.CuttingProxy;
import io.lake.meta.testkit.postgres.PostgresTestTarget;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Faults injected at chosen points of a commit, and what the store answers: a loopback proxy
 * ({@link CuttingProxy}) between the store and the server cuts the connection when the client sends
 * a chosen statement, before the server sees it or after the server answered it; a second session
 * ends the store's session ({@code pg_terminate_backend}) while a commit is held at
 * {@link RaceHooks#COMMIT_CHECKED}; another session deadlocks with a commit. Each test then reads
 * the table through an unaffected pool to see what really happened.
 */
class PostgresFaultTest {

    @RegisterExtension
    static final ClassDatabase DB = new ClassDatabase();

    private static final MetaKey K = MetaKey.of("tbl/ns1/k");
    private static final MetaKey OTHER = MetaKey.of("tbl/ns1/other");

    /** The COMMIT statement as the driver sends it: a NUL-terminated query string of its own (not "READ COMMITTED"). */
    private static final String COMMIT = "\0COMMIT\0";

    private CuttingProxy proxy;
    private String table;
    private MetaStore truth;

    private static MetaValue v(String text) {
        return MetaValue.utf8(text);
    }

    @BeforeEach
    void setUp() throws Exception {
        PostgresTestTarget target = DB.database().target();
        proxy = new CuttingProxy(target.host(), target.port());
        table = DB.database().newTableName();
        truth = PostgresMetaStore.builder()
                .dataSource(DB.database().pool())
                .table(table)
                .createTableIfMissing(true)
                .build();
    }

    @AfterEach
    void tearDown() throws Exception {
        truth.close();
        proxy.close();
    }

    /** A store whose every connection goes through the proxy (no pool: a new connection per call). */
    private MetaStore throughProxy(Duration resolutionTimeout) {
        return PostgresMetaStore.builder()
                .dataSource(DB.database().target().direct(DB.database().name(), "127.0.0.1", proxy.port()))
                .table(table)
                .resolutionTimeout(resolutionTimeout)
                .build();
    }

    @Test
    void aConnectionLostBeforeCommitWasSent_isNotApplied_andTheNextCallWorks() throws Exception {
        truth.create(K, v("1"));
        try (MetaStore store = throughProxy(Duration.ofSeconds(10))) {
            proxy.cutWhenClientSends("INSERT INTO", CuttingProxy.Cut.BEFORE_SERVER);

            assertThatThrownBy(() -> store.update(K, v("1"), v("2")))
                    .isInstanceOf(StoreUnavailableException.class)
                    .hasMessageContaining("before COMMIT was sent")
                    .hasMessageContaining("nothing was applied");
            proxy.awaitCut();
            assertThat(truth.get(K)).contains(v("1"));

            assertThat(store.update(K, v("1"), v("2"))).isEqualTo(WriteResult.applied());
            assertThat(truth.get(K)).contains(v("2"));
        }
    }

    @Test
    void aCommitWhoseAnswerWasLost_afterTheServerCommitted_isResolvedAsApplied() throws Exception {
        truth.create(K, v("1"));
        try (MetaStore store = throughProxy(Duration.ofSeconds(10))) {
            proxy.cutWhenClientSends(COMMIT, CuttingProxy.Cut.AFTER_SERVER_ANSWERED);

            assertThat(store.update(K, v("1"), v("2"))).isEqualTo(WriteResult.applied());

            proxy.awaitCut(); // the answer really was lost: the store learned the outcome from the transaction id
            assertThat(truth.get(K)).contains(v("2"));
        }
    }

    @Test
    void aTransactionWhoseCommitAnswerWasLost_afterTheServerCommitted_isResolvedAsApplied_everyKey() throws Exception {
        truth.create(K, v("1"));
        try (MetaStore store = throughProxy(Duration.ofSeconds(10))) {
            proxy.cutWhenClientSends(COMMIT, CuttingProxy.Cut.AFTER_SERVER_ANSWERED);

            TransactionResult result = store.transact(Transaction.builder()
                    .delete(K, v("1"))
                    .create(OTHER, v("moved"))
                    .build());

            assertThat(result).isEqualTo(TransactionResult.applied());
            proxy.awaitCut();
            assertThat(truth.get(K)).isEmpty();
            assertThat(truth.get(OTHER)).contains(v("moved"));
        }
    }

    @Test
    void aCommitThatNeverReachedTheServer_isResolvedAsNotApplied() throws Exception {
        truth.create(K, v("1"));
        try (MetaStore store = throughProxy(Duration.ofSeconds(10))) {
            proxy.cutWhenClientSends(COMMIT, CuttingProxy.Cut.BEFORE_SERVER);

            assertThatThrownBy(() -> store.update(K, v("1"), v("2")))
                    .isInstanceOf(StoreUnavailableException.class)
                    .hasMessageContaining("aborted, so nothing was applied");
            proxy.awaitCut();
            assertThat(truth.get(K)).contains(v("1"));
            assertThat(truth.update(K, v("1"), v("3")))
                    .as("the aborted commit left no lock behind")
                    .isEqualTo(WriteResult.applied());
        }
    }

    @Test
    void aCommitLostInAPartition_whoseSessionLivesOn_isSettledByEndingThatSession_asNotApplied() throws Exception {
        truth.create(K, v("1"));
        try (MetaStore store = throughProxy(Duration.ofSeconds(10))) {
            proxy.cutWhenClientSends(COMMIT, CuttingProxy.Cut.PARTITION_BEFORE_SERVER);

            assertThatThrownBy(() -> store.update(K, v("1"), v("2")))
                    .isInstanceOf(StoreUnavailableException.class)
                    .hasMessageContaining("aborted, so nothing was applied");
            assertThat(idleInTransactionSessions())
                    .as("the partitioned session was ended by the store")
                    .isZero();
            assertThat(truth.get(K)).contains(v("1"));
            assertThat(truth.update(K, v("1"), v("3")))
                    .as("its locks went with it")
                    .isEqualTo(WriteResult.applied());
        }
    }

    @Test
    void aCommitWhoseAnswerWasLost_whenTheServerCannotBeAsked_isOutcomeUnknown_namingTheTransaction() throws Exception {
        truth.create(K, v("1"));
        try (MetaStore store = throughProxy(Duration.ofMillis(300))) {
            proxy.cutWhenClientSends(COMMIT, CuttingProxy.Cut.AFTER_SERVER_ANSWERED);
            proxy.refuseNewConnectionsAfterCut();

            assertThatThrownBy(() -> store.update(K, v("1"), v("2")))
                    .isInstanceOf(OutcomeUnknownException.class)
                    .hasMessageContaining("did not settle transaction")
                    .hasMessageContaining("re-read");
            assertThat(truth.get(K))
                    .as("it did commit; only the store could not learn it")
                    .contains(v("2"));
        }
    }

    @Test
    void aSessionEndedByTheServerWhileTheCommitWasChecked_isNotApplied() throws Exception {
        truth.create(K, v("1"));
        PausePoints hooks = new PausePoints();
        PausePoints.Pause held = hooks.arm(RaceHooks.COMMIT_CHECKED);
        try (MetaStore store = PostgresMetaStore.builder()
                .dataSource(DB.database().pool())
                .table(table)
                .raceHooks(hooks)
                .build()) {
            CompletableFuture<WriteResult> writer =
                    CompletableFuture.supplyAsync(() -> store.update(K, v("1"), v("2")));
            held.awaitArrival();

            assertThat(terminateIdleInTransaction())
                    .as("the held commit's session was ended")
                    .isEqualTo(1);
            held.release();

            assertThatThrownBy(() -> writer.get(30, TimeUnit.SECONDS))
                    .hasCauseInstanceOf(StoreUnavailableException.class)
                    .hasMessageContaining("nothing was applied");
            assertThat(truth.get(K)).contains(v("1"));
        }
    }

    @Test
    void aDeadlockWithAnotherSession_isRetriedInsideTheCall() throws Exception {
        truth.create(K, v("1"));
        PausePoints hooks = new PausePoints();
        PausePoints.Pause held = hooks.arm(RaceHooks.COMMIT_CHECKED);
        try (MetaStore store = PostgresMetaStore.builder()
                        .dataSource(DB.database().pool())
                        .table(table)
                        .raceHooks(hooks)
                        .build();
                Connection other = DB.database()
                        .target()
                        .direct(
                                DB.database().name(),
                                DB.database().target().host(),
                                DB.database().target().port())
                        .getConnection()) {
            CompletableFuture<WriteResult> writer =
                    CompletableFuture.supplyAsync(() -> store.update(K, v("1"), v("2")));
            held.awaitArrival(); // the commit holds K's advisory lock

            try (var setting = other.createStatement()) {
                // Which waiter finds a cycle depends on the servers' timers; make it the commit's
                // session (1 s), not this one (superuser only: the embedded server's role is).
                setting.execute("SET deadlock_timeout = '20s'");
            }
            other.setAutoCommit(false); // the other session locks K's row, which the commit's write needs
            try (PreparedStatement rowLock =
                    other.prepareStatement("SELECT 1 FROM " + table + " WHERE k = ? FOR UPDATE")) {
                rowLock.setBytes(1, K.utf8());
                rowLock.executeQuery().close();
            }
            held.release();
            awaitLockWaiters(1); // the commit's write waits for the row

            // the other session now wants K's advisory lock: a cycle, which the server breaks by
            // ending the commit's transaction (its deadlock timer started first)
            try (PreparedStatement advisory = other.prepareStatement("SELECT pg_advisory_xact_lock(?)")) {
                advisory.setLong(1, KeyLocks.lockId(TableName.resolved("public", table), K.toString()));
                advisory.executeQuery().close();
            }
            other.commit(); // releases both; the retried commit goes through

            assertThat(writer.get(30, TimeUnit.SECONDS)).isEqualTo(WriteResult.applied());
            assertThat(truth.get(K)).contains(v("2"));
        }
    }

    /** How many sessions of this database are idle inside a transaction. */
    private static int idleInTransactionSessions() throws SQLException {
        try (Connection admin = DB.database().pool().getConnection();
                PreparedStatement count = admin.prepareStatement("SELECT count(*) FROM pg_stat_activity"
                        + " WHERE datname = current_database() AND state = 'idle in transaction'");
                ResultSet rows = count.executeQuery()) {
            rows.next();
            return rows.getInt(1);
        }
    }

    /** Ends every other session of this database that is idle inside a transaction; returns how many. */
    private static int terminateIdleInTransaction() throws SQLException {
        try (Connection admin = DB.database().pool().getConnection();
                PreparedStatement terminate = admin.prepareStatement("SELECT count(pg_terminate_backend(pid))"
                        + " FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
                        + " AND state = 'idle in transaction'");
                ResultSet rows = terminate.executeQuery()) {
            rows.next();
            return rows.getInt(1);
        }
    }

    /** Waits (bounded, by asking the server) until {@code n} sessions of this database wait for a lock. */
    private static void awaitLockWaiters(int n) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            try (Connection admin = DB.database().pool().getConnection();
                    PreparedStatement waiting = admin.prepareStatement("SELECT count(*) FROM pg_stat_activity"
                            + " WHERE datname = current_database() AND wait_event_type = 'Lock'");
                    ResultSet rows = waiting.executeQuery()) {
                rows.next();
                if (rows.getInt(1) >= n) {
                    return;
                }
            }
            assertThat(System.nanoTime())
                    .as("%d sessions waited for a lock in time", n)
                    .isLessThan(deadline);
            Thread.onSpinWait();
        }
    }
}
