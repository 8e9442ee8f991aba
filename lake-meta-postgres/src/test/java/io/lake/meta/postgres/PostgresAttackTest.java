package io.lake.meta.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.InvalidArgumentException;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.StoreUnavailableException;
import io.lake.meta.WriteResult;
import io.lake.meta.spi.RaceHooks;
import io.lake.meta.testkit.PausePoints;
import io.lake.meta.testkit.postgres.CuttingProxy;
import io.lake.meta.testkit.postgres.PostgresTestTarget;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Faults and configurations real deployments see, attacked through the public API: two stores
 * (two processes) over one table, a partition in the middle of a commit, a table that passes for a
 * lake-meta table without being one.
 */
class PostgresAttackTest {

    @RegisterExtension
    static final ClassDatabase DB = new ClassDatabase();

    private static final MetaKey K = MetaKey.of("tbl/ns1/k");

    private static MetaValue v(String text) {
        return MetaValue.utf8(text);
    }

    private static MetaStore open(String table, RaceHooks hooks) {
        return PostgresMetaStore.builder()
                .dataSource(DB.database().pool())
                .table(table)
                .raceHooks(hooks)
                .build();
    }

    /**
     * Two services configured with the same table, one as {@code store_n}, the other schema-qualified
     * as {@code public.store_n} (the CLI's {@code postgres:URL#public.store_n}, say). Each is its own
     * process: only the server's advisory locks serialize them. Both compare-and-set the same value:
     * exactly one may apply.
     */
    @Test
    void twoStoresNamingOneTableDifferently_bothCasTheSameValue_onlyOneApplies() throws Exception {
        String table = DB.database().newTableName();
        try (MetaStore truth = PostgresMetaStore.builder()
                .dataSource(DB.database().pool())
                .table(table)
                .createTableIfMissing(true)
                .build()) {
            truth.create(K, v("0"));
            PausePoints hooks = new PausePoints();
            PausePoints.Pause held = hooks.arm(RaceHooks.COMMIT_CHECKED);
            try (MetaStore first = open(table, hooks);
                    MetaStore second = open("public." + table, RaceHooks.NONE)) {
                CompletableFuture<WriteResult> a = CompletableFuture.supplyAsync(() -> first.update(K, v("0"), v("a")));
                held.awaitArrival(); // the first holds K's lock and has read 0

                CompletableFuture<WriteResult> b =
                        CompletableFuture.supplyAsync(() -> second.update(K, v("0"), v("b")));
                awaitLockWaiterOrDone(b); // correct: it waits for the first's lock; broken: it read 0 too and committed
                held.release();

                WriteResult ra = a.get(30, TimeUnit.SECONDS);
                WriteResult rb = b.get(30, TimeUnit.SECONDS);
                assertThat(ra.isApplied() && rb.isApplied())
                        .as(
                                "both CAS 0 -> a and 0 -> b answered applied (%s, %s); the key holds %s",
                                ra, rb, truth.get(K))
                        .isFalse();
            }
        }
    }

    /**
     * A network partition while the write statement is on its way: the client's side dies, the
     * server's session lives on idle in its transaction, holding the key's advisory lock. The call
     * rightly answers "nothing was applied"; but unless the store ends that session, every later
     * writer of the key, in every process, waits for the server to notice the dead peer (TCP
     * keepalive: two hours by default).
     */
    @Test
    void aPartitionBeforeCommit_leavesNoSessionHoldingTheKeysLock() throws Exception {
        PostgresTestTarget target = DB.database().target();
        String table = DB.database().newTableName();
        try (CuttingProxy proxy = new CuttingProxy(target.host(), target.port());
                MetaStore truth = PostgresMetaStore.builder()
                        .dataSource(DB.database().pool())
                        .table(table)
                        .createTableIfMissing(true)
                        .build();
                MetaStore store = PostgresMetaStore.builder()
                        .dataSource(target.direct(DB.database().name(), "127.0.0.1", proxy.port()))
                        .table(table)
                        .resolutionTimeout(Duration.ofSeconds(10))
                        .build()) {
            truth.create(K, v("1"));
            proxy.cutWhenClientSends("INSERT INTO", CuttingProxy.Cut.PARTITION_BEFORE_SERVER);

            assertThatThrownBy(() -> store.update(K, v("1"), v("2")))
                    .isInstanceOf(StoreUnavailableException.class)
                    .hasMessageContaining("nothing was applied");
            proxy.awaitCut();

            // pg_terminate_backend signals; the session ends a moment later: ask the server (bounded)
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (sessionsHoldingAdvisoryLocks() > 0 && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            assertThat(sessionsHoldingAdvisoryLocks())
                    .as("sessions still holding an advisory lock 10 s after the call answered 'nothing was applied'")
                    .isZero();
            CompletableFuture<WriteResult> next = CompletableFuture.supplyAsync(() -> truth.update(K, v("1"), v("3")));
            assertThat(next.get(30, TimeUnit.SECONDS)).isEqualTo(WriteResult.applied());
        }
    }

    /**
     * A partition that begins while the server answers the keys' lock-and-read: the server took the
     * advisory locks and its session lives on idle in the transaction; the client never learned
     * anything from it (no transaction id, no pid from a statement). The store must still end that
     * session, or the key stays locked for every writer until the server notices the dead peer.
     */
    @Test
    void aPartitionWhileTheLocksAreAnswered_leavesNoSessionHoldingTheKeysLock() throws Exception {
        PostgresTestTarget target = DB.database().target();
        String table = DB.database().newTableName();
        try (CuttingProxy proxy = new CuttingProxy(target.host(), target.port());
                MetaStore truth = PostgresMetaStore.builder()
                        .dataSource(DB.database().pool())
                        .table(table)
                        .createTableIfMissing(true)
                        .build();
                MetaStore store = PostgresMetaStore.builder()
                        .dataSource(target.direct(DB.database().name(), "127.0.0.1", proxy.port()))
                        .table(table)
                        .resolutionTimeout(Duration.ofSeconds(10))
                        .build()) {
            truth.create(K, v("1"));
            proxy.cutWhenClientSends("pg_advisory_xact_lock", CuttingProxy.Cut.PARTITION_AFTER_SERVER_ANSWERED);

            assertThatThrownBy(() -> store.update(K, v("1"), v("2")))
                    .isInstanceOf(StoreUnavailableException.class)
                    .hasMessageContaining("nothing was applied");
            proxy.awaitCut();

            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (sessionsHoldingAdvisoryLocks() > 0 && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            assertThat(sessionsHoldingAdvisoryLocks())
                    .as("sessions still holding an advisory lock 10 s after the call answered 'nothing was applied'")
                    .isZero();
            assertThat(truth.get(K)).contains(v("1"));
            CompletableFuture<WriteResult> next = CompletableFuture.supplyAsync(() -> truth.update(K, v("1"), v("3")));
            assertThat(next.get(30, TimeUnit.SECONDS)).isEqualTo(WriteResult.applied());
        }
    }

    /**
     * A table with the lake-meta comment and the right columns but no primary key (a DBA's
     * hand-made copy, a restore without its indexes): every write would fail on ON CONFLICT (k), and
     * nothing would stop two rows of one key. It must be refused at build(), naming what is missing.
     */
    @Test
    void aTableWithoutItsPrimaryKey_isRefusedAtBuild() throws Exception {
        String table = DB.database().newTableName();
        try (Connection c = DB.database().pool().getConnection();
                Statement s = c.createStatement()) {
            s.execute("CREATE TABLE " + table + " (k bytea NOT NULL, v bytea NOT NULL)");
            s.execute("COMMENT ON TABLE " + table + " IS 'lake-meta store, format 1'");
        }
        assertThatThrownBy(() -> open(table, RaceHooks.NONE).close())
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("primary key");
    }

    /** A comment claiming format 0 (no such format ever existed): another program's table, refused. */
    @Test
    void aTableOfFormatZero_isRefusedAtBuild() throws Exception {
        String table = DB.database().newTableName();
        try (Connection c = DB.database().pool().getConnection();
                Statement s = c.createStatement()) {
            s.execute("CREATE TABLE " + table + " (k bytea PRIMARY KEY, v bytea NOT NULL)");
            s.execute("COMMENT ON TABLE " + table + " IS 'lake-meta store, format 0'");
        }
        assertThatThrownBy(() -> open(table, RaceHooks.NONE).close())
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("format 0");
    }

    /**
     * {@code createTableIfMissing(true)} in a schema that does not exist: a configuration error that
     * no retry cures, so a typed {@link InvalidArgumentException} naming the schema, not a retryable
     * {@link StoreUnavailableException}.
     */
    @Test
    void creatingATableInASchemaThatDoesNotExist_isABadArgument_notUnavailable() {
        assertThatThrownBy(() -> PostgresMetaStore.builder()
                        .dataSource(DB.database().pool())
                        .table("no_such_schema." + DB.database().newTableName())
                        .createTableIfMissing(true)
                        .build()
                        .close())
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("no_such_schema");
    }

    /** Waits (bounded, by asking the server) until a session of this database waits for a lock, or {@code call} ended. */
    private static void awaitLockWaiterOrDone(CompletableFuture<?> call) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!call.isDone()) {
            try (Connection admin = DB.database().pool().getConnection();
                    PreparedStatement waiting = admin.prepareStatement("SELECT count(*) FROM pg_stat_activity"
                            + " WHERE datname = current_database() AND wait_event_type = 'Lock'");
                    ResultSet rows = waiting.executeQuery()) {
                rows.next();
                if (rows.getInt(1) >= 1) {
                    return;
                }
            }
            assertThat(System.nanoTime())
                    .as("the second writer waited or finished in time")
                    .isLessThan(deadline);
            Thread.onSpinWait();
        }
    }

    private static int sessionsHoldingAdvisoryLocks() throws SQLException {
        try (Connection admin = DB.database().pool().getConnection();
                PreparedStatement count = admin.prepareStatement("SELECT count(DISTINCT l.pid) FROM pg_locks l"
                        + " JOIN pg_stat_activity a ON a.pid = l.pid"
                        + " WHERE a.datname = current_database() AND l.locktype = 'advisory' AND l.granted");
                ResultSet rows = count.executeQuery()) {
            rows.next();
            return rows.getInt(1);
        }
    }
}
