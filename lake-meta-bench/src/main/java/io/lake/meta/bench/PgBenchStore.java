package io.lake.meta.bench;

import java.util.List;

/**
 * What the PostgreSQL rows measure, through one facade for both sides: lake-meta's
 * {@code PostgresMetaStore}, or plain JDBC statements doing the same work on a table of the same
 * shape ({@code k bytea PRIMARY KEY, v bytea NOT NULL}) through the same connection pool.
 */
interface PgBenchStore extends AutoCloseable {

    /** Writes a fresh key (setup only). */
    void create(BenchKey key, BenchValue value);

    /** lake-meta: {@code update}; raw: {@code UPDATE … SET v = next WHERE k = key AND v = expected}. True when written. */
    boolean compareAndSet(BenchKey key, BenchValue expected, BenchValue next);

    /** The first page of {@code prefix}: lake-meta's {@code page}; raw: one keyset {@code SELECT … ORDER BY k LIMIT limit + 1}. */
    int firstPage(String prefix, int limit);

    /** lake-meta's {@code getAll}; raw: {@code SELECT k, v … WHERE k = ANY(?)}. The number of keys found. */
    int getAll(List<BenchKey> keys);

    /** Drops the table and closes the pool. */
    @Override
    void close();
}
