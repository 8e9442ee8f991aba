package io.lake.meta.bench;

import com.zaxxer.hikari.HikariDataSource;
import io.lake.meta.KeyPrefix;
import io.lake.meta.MetaStore;
import io.lake.meta.Page;
import io.lake.meta.PageRequest;
import io.lake.meta.postgres.PostgresMetaStore;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/** The two sides of the PostgreSQL rows, each on a fresh table of its own behind a pool of {@code poolSize}. */
public enum PgBackend {

    /** lake-meta's PostgreSQL store, through the public {@code MetaStore} API. */
    LAKE_META {
        @Override
        PgBenchStore open(PgServer server, int poolSize) {
            HikariDataSource pool = server.pool(poolSize);
            String table = freshTable("lake");
            MetaStore store = PostgresMetaStore.builder()
                    .dataSource(pool)
                    .table(table)
                    .createTableIfMissing(true)
                    .build();
            return new PgBenchStore() {
                @Override
                public void create(BenchKey key, BenchValue value) {
                    if (!store.create(key.meta(), value.meta()).isApplied()) {
                        throw new IllegalStateException("the key already existed: " + key.meta());
                    }
                }

                @Override
                public boolean compareAndSet(BenchKey key, BenchValue expected, BenchValue next) {
                    return store.update(key.meta(), expected.meta(), next.meta())
                            .isApplied();
                }

                @Override
                public int firstPage(String prefix, int limit) {
                    Page page = store.page(PageRequest.first(KeyPrefix.of(prefix), limit));
                    return page.entries().size();
                }

                @Override
                public int getAll(List<BenchKey> keys) {
                    return store.getAll(keys.stream().map(BenchKey::meta).toList())
                            .size();
                }

                @Override
                public void close() {
                    store.close();
                    dropAndClose(pool, table);
                }
            };
        }
    },

    /** Plain JDBC statements, autocommit, on a table of the same shape: the baseline. */
    RAW_JDBC {
        @Override
        PgBenchStore open(PgServer server, int poolSize) {
            HikariDataSource pool = server.pool(poolSize);
            String table = freshTable("raw");
            execute(pool, "CREATE TABLE " + table + " (k bytea PRIMARY KEY, v bytea NOT NULL)");
            String insert = "INSERT INTO " + table + " (k, v) VALUES (?, ?)";
            String update = "UPDATE " + table + " SET v = ? WHERE k = ? AND v = ?";
            String page = "SELECT k, v FROM " + table + " WHERE k >= ? AND k < ? ORDER BY k LIMIT ?";
            String getAll = "SELECT k, v FROM " + table + " WHERE k = ANY(?)";
            return new PgBenchStore() {
                @Override
                public void create(BenchKey key, BenchValue value) {
                    try (Connection c = pool.getConnection();
                            PreparedStatement s = c.prepareStatement(insert)) {
                        s.setBytes(1, key.utf8());
                        s.setBytes(2, value.bytes());
                        s.executeUpdate();
                    } catch (SQLException e) {
                        throw new IllegalStateException(e);
                    }
                }

                @Override
                public boolean compareAndSet(BenchKey key, BenchValue expected, BenchValue next) {
                    try (Connection c = pool.getConnection();
                            PreparedStatement s = c.prepareStatement(update)) {
                        s.setBytes(1, next.bytes());
                        s.setBytes(2, key.utf8());
                        s.setBytes(3, expected.bytes());
                        return s.executeUpdate() == 1;
                    } catch (SQLException e) {
                        throw new IllegalStateException(e);
                    }
                }

                @Override
                public int firstPage(String prefix, int limit) {
                    byte[] from = prefix.getBytes(StandardCharsets.UTF_8);
                    byte[] to = Arrays.copyOf(from, from.length);
                    to[to.length - 1]++; // the benchmarks' prefixes end in '/'
                    int entries = 0;
                    try (Connection c = pool.getConnection();
                            PreparedStatement s = c.prepareStatement(page)) {
                        s.setBytes(1, from);
                        s.setBytes(2, to);
                        s.setInt(3, limit + 1); // the look-ahead row that tells whether there is a next page, as
                        // lake-meta reads
                        try (ResultSet rows = s.executeQuery()) {
                            while (rows.next() && entries < limit) {
                                rows.getBytes(1);
                                rows.getBytes(2);
                                entries++;
                            }
                        }
                    } catch (SQLException e) {
                        throw new IllegalStateException(e);
                    }
                    return entries;
                }

                @Override
                public int getAll(List<BenchKey> keys) {
                    int found = 0;
                    try (Connection c = pool.getConnection();
                            PreparedStatement s = c.prepareStatement(getAll)) {
                        s.setArray(
                                1,
                                c.createArrayOf(
                                        "bytea",
                                        keys.stream().map(BenchKey::utf8).toArray(byte[][]::new)));
                        try (ResultSet rows = s.executeQuery()) {
                            while (rows.next()) {
                                rows.getBytes(1);
                                rows.getBytes(2);
                                found++;
                            }
                        }
                    } catch (SQLException e) {
                        throw new IllegalStateException(e);
                    }
                    return found;
                }

                @Override
                public void close() {
                    dropAndClose(pool, table);
                }
            };
        }
    };

    private static final AtomicLong TABLES = new AtomicLong();

    abstract PgBenchStore open(PgServer server, int poolSize);

    /** A table no other trial (in this JVM or a fork) uses. */
    private static String freshTable(String side) {
        return "bench_" + side + "_" + ProcessHandle.current().pid() + "_" + TABLES.incrementAndGet();
    }

    private static void execute(HikariDataSource pool, String sql) {
        try (Connection c = pool.getConnection();
                Statement s = c.createStatement()) {
            s.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException("PostgreSQL refused: " + sql + " (" + e.getMessage() + ")", e);
        }
    }

    private static void dropAndClose(HikariDataSource pool, String table) {
        try {
            execute(pool, "DROP TABLE IF EXISTS " + table);
        } finally {
            pool.close();
        }
    }
}
