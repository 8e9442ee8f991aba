package io.lake.meta.testkit.outside;

import static org.assertj.core.api.Assertions.assertThat;

import io.lake.meta.MetaStore;
import io.lake.meta.spi.ForwardingMetaStore;
import io.lake.meta.spi.RaceHooks;
import io.lake.meta.testkit.InMemoryMetaStore;
import io.lake.meta.testkit.MetaStoreContract;
import io.lake.meta.testkit.TempDirStoreExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The whole contract with its stores supplied by {@link TempDirStoreExtension#forContract}, as an
 * embedded backend's test would: each store in a new directory it writes to, every directory gone
 * after its test.
 */
class TempDirStoresMetaStoreContractTest extends MetaStoreContract {

    private static final List<Path> DIRECTORIES = new CopyOnWriteArrayList<>();

    @RegisterExtension
    static final TempDirStoreExtension STORES = TempDirStoreExtension.forContract((dir, hooks) -> {
        assertThat(dir).isEmptyDirectory();
        DIRECTORIES.add(dir);
        Files.writeString(dir.resolve("LOCK"), "a file the backend keeps in its directory");
        return new DirectoryStore(InMemoryMetaStore.withHooks(hooks));
    });

    @Override
    protected MetaStore openStore(RaceHooks hooks) throws Exception {
        return STORES.open(hooks);
    }

    @AfterAll
    static void everyDirectoryWasDeleted() {
        assertThat(DIRECTORIES).as("the suite opened stores through the extension").hasSizeGreaterThan(100);
        assertThat(DIRECTORIES).allSatisfy(dir -> assertThat(dir).doesNotExist());
    }

    /** Stands for a backend that lives in a directory. */
    private static final class DirectoryStore extends ForwardingMetaStore {
        DirectoryStore(MetaStore delegate) {
            super(delegate);
        }
    }
}
