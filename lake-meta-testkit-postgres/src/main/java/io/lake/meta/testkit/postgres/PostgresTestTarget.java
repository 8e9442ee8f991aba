package io.lake.meta.testkit.postgres;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * The PostgreSQL server the tests run against: by default one {@link EmbeddedPostgres} per test
 * JVM; with {@value #URL_VARIABLE} (environment) or {@value #URL_PROPERTY} (system property) set,
 * an existing server at that JDBC URL instead, with {@value #USER_VARIABLE} and
 * {@value #PASSWORD_VARIABLE} as its credentials (never printed). That role needs CREATEDB: each
 * test class gets a fresh database ({@link #newDatabase}), dropped when the class ends.
 *
 * @since 0.1.0
 */
public final class PostgresTestTarget {

    public static final String URL_VARIABLE = "LAKE_META_POSTGRES_URL";
    public static final String URL_PROPERTY = "lake.meta.postgres.url";
    public static final String USER_VARIABLE = "LAKE_META_POSTGRES_USER";
    public static final String PASSWORD_VARIABLE = "LAKE_META_POSTGRES_PASSWORD";

    private static @Nullable PostgresTestTarget shared;

    private final String host;
    private final int port;
    private final String adminDatabase;
    private final String user;
    private final @Nullable String password;
    private final String description;
    private final String runId =
            Long.toString(ProcessHandle.current().pid(), 36) + "_" + Long.toString(System.nanoTime() & 0xFFFFF, 36);
    private final AtomicInteger databases = new AtomicInteger();

    private PostgresTestTarget(
            String host, int port, String adminDatabase, String user, @Nullable String password, String description) {
        this.host = host;
        this.port = port;
        this.adminDatabase = adminDatabase;
        this.user = user;
        this.password = password;
        this.description = description;
    }

    /** The server of this JVM: the configured one, else the embedded one, started on first use. */
    public static synchronized PostgresTestTarget shared() {
        if (shared == null) {
            String url = Optional.ofNullable(System.getProperty(URL_PROPERTY))
                    .filter(s -> !s.isBlank())
                    .orElse(System.getenv(URL_VARIABLE));
            if (url != null && !url.isBlank()) {
                PGSimpleDataSource parsed = new PGSimpleDataSource();
                parsed.setUrl(url);
                shared = new PostgresTestTarget(
                        parsed.getServerNames()[0],
                        parsed.getPortNumbers()[0] == 0 ? 5432 : parsed.getPortNumbers()[0],
                        parsed.getDatabaseName(),
                        System.getenv(USER_VARIABLE),
                        System.getenv(PASSWORD_VARIABLE),
                        "the PostgreSQL server at " + parsed.getServerNames()[0] + ":" + parsed.getPortNumbers()[0]
                                + " named by " + URL_VARIABLE + "/" + URL_PROPERTY);
            } else {
                EmbeddedPostgres server = EmbeddedPostgres.start();
                shared = new PostgresTestTarget(
                        "127.0.0.1",
                        server.port(),
                        "postgres",
                        "postgres",
                        null,
                        "the embedded PostgreSQL server at 127.0.0.1:" + server.port() + " (" + server.describe() + "; "
                                + URL_VARIABLE + " is not set)");
            }
            System.out.println("[lake-meta] PostgreSQL test target: " + shared.description);
        }
        return shared;
    }

    /** The server's host. */
    public String host() {
        return host;
    }

    /** The server's port. */
    public int port() {
        return port;
    }

    /** A data source without a pool on {@code database} at {@code host:port} (a fault proxy's, say). */
    public DataSource direct(String database, String viaHost, int viaPort) {
        PGSimpleDataSource source = new PGSimpleDataSource();
        source.setServerNames(new String[] {viaHost});
        source.setPortNumbers(new int[] {viaPort});
        source.setDatabaseName(database);
        if (user != null) {
            source.setUser(user);
        }
        if (password != null) {
            source.setPassword(password);
        }
        source.setConnectTimeout(10);
        source.setSocketTimeout(60); // a fault test's hung socket fails in a minute, never hangs the build
        return source;
    }

    /** A fresh, empty database for one test class; close it when the class ends. */
    public TestDatabase newDatabase(String label) {
        String name = ("lm_" + runId + "_" + databases.incrementAndGet() + "_"
                + label.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]", ""));
        name = name.substring(0, Math.min(name.length(), 63));
        execute(adminDatabase, "CREATE DATABASE " + name);
        return new TestDatabase(this, name);
    }

    /** Drops a database {@link #newDatabase} created, ending its sessions. */
    public void dropDatabase(String name) {
        execute(adminDatabase, "DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
    }

    private void execute(String database, String sql) {
        try (Connection connection = direct(database, host, port).getConnection();
                Statement statement = connection.createStatement()) {
            statement.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException(description + ": " + sql + " failed: " + e.getMessage(), e);
        }
    }

    @Override
    public String toString() {
        return description;
    }

    /** One test class's database: a small pool on it, and a fresh table per store. */
    public static final class TestDatabase implements AutoCloseable {

        private final PostgresTestTarget target;
        private final String name;
        private final HikariDataSource pool;
        private final AtomicInteger tables = new AtomicInteger();

        private TestDatabase(PostgresTestTarget target, String name) {
            this.target = target;
            this.name = name;
            HikariConfig config = new HikariConfig();
            config.setDataSource(target.direct(name, target.host, target.port));
            config.setMaximumPoolSize(8);
            config.setMinimumIdle(0);
            config.setPoolName(name);
            this.pool = new HikariDataSource(config);
        }

        /** The database's name. */
        public String name() {
            return name;
        }

        /** The pooled data source every store of the class shares, as a service's stores would. */
        public DataSource pool() {
            return pool;
        }

        /** The server the database is on. */
        public PostgresTestTarget target() {
            return target;
        }

        /** A new table name in this database. */
        public String newTableName() {
            return "store_" + tables.incrementAndGet();
        }

        @Override
        public void close() {
            pool.close();
            target.dropDatabase(name);
        }
    }
}
