package io.lake.meta.rocks;

import org.rocksdb.Options;

/**
 * The native options a store directory is opened with, and the info log they write to. RocksDB
 * keeps using both while the database is open: close them after the database.
 */
final class DatabaseOptions implements AutoCloseable {

    private final RocksInfoLog log;
    private final Options options;

    private DatabaseOptions(RocksInfoLog log, Options options) {
        this.log = log;
        this.options = options;
    }

    static DatabaseOptions create(boolean createIfMissing) {
        RocksInfoLog log = RocksInfoLog.create();
        return new DatabaseOptions(log, new Options().setCreateIfMissing(createIfMissing).setLogger(log));
    }

    Options options() {
        return options;
    }

    @Override
    public void close() {
        options.close();
        log.close();
    }
}
