package io.lake.meta.rocks;

import io.lake.meta.MetaStore;
import io.lake.meta.spi.RaceHooks;
import io.lake.meta.testkit.MetaStoreContract;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** Runs the shared MetaStore contract suite against the RocksDB store, one fresh directory per store. */
class RocksDbMetaStoreContractTest extends MetaStoreContract {

    @TempDir
    Path root;

    @Override
    protected MetaStore openStore(RaceHooks hooks) throws Exception {
        return RocksDbMetaStore.builder()
                .directory(Files.createTempDirectory(root, "store"))
                .raceHooks(hooks)
                .build();
    }
}
