package io.lake.meta.rocks;

import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.Options;

/**
 * The native options a store directory is opened with, and the info log they write to. RocksDB
 * keeps using both while the database is open: close them after the database.
 *
 * <p>Bloom filters in the tables, because every create checks that its key is absent: without
 * them each such check searches every table that may hold the key. (Not in the memtable: there a
 * filter made a bulk load of fresh keys about a third faster but cost every read of an existing key
 * a probe, 8-10 % of its CPU, and reads are far more common; profiled in
 * {@code verification/performance.md}.)
 * They change no stored format a reader depends on (a table without a filter is read as before).
 */
final class DatabaseOptions implements AutoCloseable {

    /** Bits per key of the table filters: about a 1% false-positive rate. */
    private static final double BLOOM_BITS_PER_KEY = 10;

    private final RocksInfoLog log;
    private final BloomFilter filter;
    private final Options options;

    private DatabaseOptions(RocksInfoLog log, BloomFilter filter, Options options) {
        this.log = log;
        this.filter = filter;
        this.options = options;
    }

    static DatabaseOptions create(boolean createIfMissing) {
        RocksInfoLog log = RocksInfoLog.create();
        BloomFilter filter = new BloomFilter(BLOOM_BITS_PER_KEY);
        Options options = new Options()
                .setCreateIfMissing(createIfMissing)
                .setLogger(log)
                .setTableFormatConfig(new BlockBasedTableConfig().setFilterPolicy(filter));
        return new DatabaseOptions(log, filter, options);
    }

    Options options() {
        return options;
    }

    @Override
    public void close() {
        options.close();
        filter.close();
        log.close();
    }
}
