package io.lake.meta.rocks;

import io.lake.meta.MetaStore;
import io.lake.meta.testkit.maintenance.FencedTableLocksContract;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The fenced table locks suite on the RocksDB store, one fresh directory per test. */
class RocksDbFencedTableLocksTest extends FencedTableLocksContract {

    @TempDir
    Path root;

    @Override
    protected MetaStore openStore() throws Exception {
        return RocksDbMetaStore.builder().directory(Files.createTempDirectory(root, "store")).build();
    }
}
