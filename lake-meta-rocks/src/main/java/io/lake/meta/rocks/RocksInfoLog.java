package io.lake.meta.rocks;

import org.rocksdb.InfoLogLevel;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends RocksDB's info log to SLF4J (logger {@code io.lake.meta.rocks.RocksDB}) instead of the
 * {@code LOG} files RocksDB would keep in the store directory. RocksDB creates (and rotates) its
 * log file before it takes the directory's lock, so with file logging even an open refused
 * because another store holds the directory would change that directory.
 */
final class RocksInfoLog extends org.rocksdb.Logger {

    private static final Logger LOG = LoggerFactory.getLogger("io.lake.meta.rocks.RocksDB");

    private RocksInfoLog(InfoLogLevel level) {
        super(level);
    }

    /** Every line crosses JNI: RocksDB's informational lines are passed only when SLF4J prints them. */
    static RocksInfoLog create() {
        return new RocksInfoLog(LOG.isDebugEnabled() ? InfoLogLevel.INFO_LEVEL : InfoLogLevel.WARN_LEVEL);
    }

    @Override
    protected void log(InfoLogLevel level, String message) {
        switch (level) {
            case DEBUG_LEVEL -> LOG.trace("{}", message);
            case INFO_LEVEL, HEADER_LEVEL -> LOG.debug("{}", message);
            case WARN_LEVEL -> LOG.warn("{}", message);
            default -> LOG.error("{}", message);
        }
    }
}
