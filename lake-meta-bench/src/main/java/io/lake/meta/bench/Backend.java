package io.lake.meta.bench;

import io.lake.meta.rocks.Durability;
import java.nio.file.Path;

/** The backends a benchmark's {@code @Param("backend")} chooses from. */
public enum Backend {

    /** lake-meta's RocksDB store, through the public {@code MetaStore} API. */
    LAKE_META {
        @Override
        BenchStore open(Path directory, Durability durability) {
            return new LakeMetaRocksStore(directory, durability);
        }
    },

    /** RocksDB JNI called directly, with RocksDB's default options and the same durability: the baseline. */
    RAW_ROCKSDB {
        @Override
        BenchStore open(Path directory, Durability durability) {
            return new RawRocksStore(directory, durability);
        }
    };

    abstract BenchStore open(Path directory, Durability durability);
}
