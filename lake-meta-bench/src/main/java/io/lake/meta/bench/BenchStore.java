package io.lake.meta.bench;

import java.util.List;

/**
 * The one facade the benchmarks reach a backend through (as Caffeine's benchmarks reach caches
 * through theirs): the lake-meta store, or raw RocksDB JNI doing the nearest plain thing. Where
 * RocksDB has no conditional form, the raw side does the unconditional one (a put for a
 * compare-and-set), so its figure is the ceiling lake-meta is measured against.
 */
public interface BenchStore extends AutoCloseable {

    /** lake-meta: update {@code key} from {@code expected} to {@code next}; raw: put {@code next}. True when written. */
    boolean compareAndSet(BenchKey key, BenchValue expected, BenchValue next);

    /** lake-meta: create-if-absent; raw: put. True when written. */
    boolean create(BenchKey key, BenchValue value);

    /** A point read; the result only feeds a black hole. */
    Object get(BenchKey key);

    /** Reads every entry under {@code prefix}: lake-meta in pages of {@code pageSize}, raw in one iterator pass. */
    long listAll(String prefix, int pageSize);

    /** lake-meta: one transaction creating every key; raw: one {@code WriteBatch} of puts. */
    void createAll(List<BenchKey> keys, BenchValue value);

    @Override
    void close();
}
