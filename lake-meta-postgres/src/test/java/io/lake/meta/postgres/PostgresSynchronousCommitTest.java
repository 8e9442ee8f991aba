package io.lake.meta.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.WriteResult;
import io.lake.meta.spi.RaceHooks;
import io.lake.meta.testkit.postgres.PostgresTestTarget;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A DBA may set {@code synchronous_commit = off} on the store's role (or a pool may set it per
 * session); a COMMIT then answers before its WAL is flushed, and an "applied" answer can vanish in
 * a server crash. The store's write transactions turn it on for themselves. The setting in force
 * is read on the write's own connection, inside its transaction, between the check and the
 * write (the connection is idle there: the {@code COMMIT_CHECKED} race hook runs on the writer's
 * thread), and COMMIT uses the setting in force at commit time.
 */
class PostgresSynchronousCommitTest {

    @RegisterExtension
    static final ClassDatabase DB = new ClassDatabase();

    private static final MetaKey A = MetaKey.of("tbl/ns1/a");

    @Test
    void aWriteTransaction_commitsWithSynchronousCommitOn_whenTheSessionTurnedItOff() throws Exception {
        PostgresTestTarget target = DB.database().target();
        ThreadLocal<Connection> lastHandedOut = new ThreadLocal<>(); // the hook runs on the writer's thread
        List<String> seenAtCheck = new CopyOnWriteArrayList<>();
        RaceHooks readTheSetting = point -> {
            if (point.equals(RaceHooks.COMMIT_CHECKED)) {
                seenAtCheck.add(synchronousCommitOn(lastHandedOut.get()));
            }
        };
        try (HikariDataSource pool = sessionsWithSynchronousCommitOff(target);
                MetaStore store = PostgresMetaStore.builder()
                        .dataSource(recording(pool, lastHandedOut))
                        .table(DB.database().newTableName())
                        .createTableIfMissing(true)
                        .raceHooks(readTheSetting)
                        .build()) {
            try (Connection plain = pool.getConnection()) {
                assertThat(synchronousCommitOn(plain))
                        .as("the pool's sessions have it off")
                        .isEqualTo("off");
            }

            assertThat(store.create(A, MetaValue.utf8("1"))).isEqualTo(WriteResult.applied());

            assertThat(seenAtCheck)
                    .as("synchronous_commit in the write's transaction")
                    .containsExactly("on");
        }
    }

    private static HikariDataSource sessionsWithSynchronousCommitOff(PostgresTestTarget target) {
        HikariConfig config = new HikariConfig();
        config.setDataSource(target.direct(DB.database().name(), target.host(), target.port()));
        config.setMaximumPoolSize(2);
        config.setConnectionInitSql("SET synchronous_commit = off"); // as a role's setting would
        return new HikariDataSource(config);
    }

    private static String synchronousCommitOn(Connection connection) {
        try (Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SHOW synchronous_commit")) {
            rows.next();
            return rows.getString(1);
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** {@code pool}, remembering the last connection it handed out to each thread. */
    private static DataSource recording(DataSource pool, ThreadLocal<Connection> last) {
        return (DataSource) Proxy.newProxyInstance(
                DataSource.class.getClassLoader(), new Class<?>[] {DataSource.class}, (proxy, method, args) -> {
                    try {
                        Object result = method.invoke(pool, args);
                        if (result instanceof Connection connection) {
                            last.set(connection);
                        }
                        return result;
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }
}
