package io.lake.meta.cli;

import io.lake.meta.MetaStore;
import io.lake.meta.rocks.RocksDbMetaStore;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;

/** The recipe commands on {@code rocks:DIR}, one fresh store directory per test. */
class RocksRecipeCommandsTest extends RecipeCommandsContract {

    @TempDir
    Path temp;

    @Override
    MetaStore openStore() {
        return RocksDbMetaStore.builder().directory(temp.resolve("db")).build();
    }

    @Override
    List<String> storeArguments() {
        return List.of("--store", "rocks:" + temp.resolve("db"));
    }
}
