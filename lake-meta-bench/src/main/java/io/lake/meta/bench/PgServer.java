package io.lake.meta.bench;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.lake.meta.testkit.postgres.EmbeddedPostgres;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * The PostgreSQL server the PostgreSQL rows run against: a JDBC URL, and the user when the bench
 * started the server itself. A server the user names ({@code --postgres}) gets its credentials
 * from {@code PGUSER} and {@code PGPASSWORD}, as the CLI's {@code postgres:} stores do, so they
 * never appear in a command line or JMH's parameters; JMH's forks inherit the environment.
 *
 * @param jdbcUrl {@code jdbc:postgresql://host:port/database}
 * @param user the user, or empty to take {@code PGUSER}
 */
record PgServer(String jdbcUrl, String user) {

    static final String USER_VARIABLE = "PGUSER";
    static final String PASSWORD_VARIABLE = "PGPASSWORD";

    /** A server the user runs. */
    static PgServer at(String jdbcUrl) {
        if (!jdbcUrl.startsWith("jdbc:postgresql:")) {
            throw new IllegalArgumentException(
                    "not a PostgreSQL JDBC URL (jdbc:postgresql://host:port/database): " + jdbcUrl);
        }
        String lower = jdbcUrl.toLowerCase(java.util.Locale.ROOT);
        if (lower.contains("password=") || lower.contains("user=")) { // JMH's log prints the URL with every result
            throw new IllegalArgumentException("the PostgreSQL URL must not carry credentials: set " + USER_VARIABLE
                    + " and " + PASSWORD_VARIABLE + " in the environment instead");
        }
        return new PgServer(jdbcUrl, "");
    }

    /**
     * Starts PostgreSQL from the binaries Maven downloaded (lake-meta-testkit-postgres's launcher:
     * loopback only, bounded memory, fsync off, as {@code nobody} when this JVM is root), stopped
     * when this JVM exits.
     */
    static PgServer embedded() {
        EmbeddedPostgres server = EmbeddedPostgres.start();
        return new PgServer("jdbc:postgresql://127.0.0.1:" + server.port() + "/postgres", "postgres");
    }

    /** A pool of {@code size} connections, all opened before it is returned (no trial pays for a connect). */
    HikariDataSource pool(int size) {
        HikariConfig config = new HikariConfig();
        config.setDataSource(dataSource());
        config.setMaximumPoolSize(size);
        config.setMinimumIdle(size);
        config.setPoolName("lake-meta-bench");
        HikariDataSource pool = new HikariDataSource(config);
        java.sql.Connection[] held = new java.sql.Connection[size];
        try {
            for (int i = 0; i < size; i++) {
                held[i] = pool.getConnection();
            }
            for (java.sql.Connection c : held) {
                c.close();
            }
        } catch (java.sql.SQLException e) {
            pool.close();
            throw new IllegalStateException("could not connect to PostgreSQL at " + jdbcUrl + ": " + e.getMessage(), e);
        }
        return pool;
    }

    PGSimpleDataSource dataSource() {
        PGSimpleDataSource source = new PGSimpleDataSource();
        source.setUrl(jdbcUrl);
        String name = user.isEmpty() ? System.getenv(USER_VARIABLE) : user;
        if (name != null && !name.isEmpty()) {
            source.setUser(name);
        }
        String password = System.getenv(PASSWORD_VARIABLE);
        if (user.isEmpty() && password != null) {
            source.setPassword(password);
        }
        return source;
    }
}
