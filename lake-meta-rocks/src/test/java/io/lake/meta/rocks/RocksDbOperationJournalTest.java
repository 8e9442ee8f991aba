package io.lake.meta.rocks;

import io.lake.meta.MetaStore;
import io.lake.meta.testkit.ops.OperationJournalContract;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The operation journal suite on the RocksDB store, one fresh directory per test. */
class RocksDbOperationJournalTest extends OperationJournalContract {

    @TempDir
    Path root;

    @Override
    protected MetaStore openStore() throws Exception {
        return RocksDbMetaStore.builder().directory(Files.createTempDirectory(root, "store")).build();
    }
}
