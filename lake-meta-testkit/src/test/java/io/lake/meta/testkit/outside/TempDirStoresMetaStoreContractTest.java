package io.lake.meta.testkit.outside;

import static org.assertj.core.api.Assertions.assertThat;

import io.lake.meta.MetaStore;
import io.lake.meta.spi.ForwardingMetaStore;
import io.lake.meta.testkit.Backend;
import io.lake.meta.testkit.BackendFactory;
import io.lake.meta.testkit.InMemoryMetaStore;
import io.lake.meta.testkit.MetaStoreSuite;
import io.lake.meta.testkit.StoreContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;

/**
 * The whole contract with every store in a directory of its own ({@link StoreContext#newDirectory()}),
 * as an embedded backend's would be: each directory new and empty, every one gone after its test.
 */
@Backend(TempDirStoresMetaStoreContractTest.InDirectories.class)
class TempDirStoresMetaStoreContractTest extends MetaStoreSuite {

    private static final List<Path> DIRECTORIES = new CopyOnWriteArrayList<>();

    static final class InDirectories implements BackendFactory {
        @Override
        public MetaStore open(StoreContext context) throws IOException {
            Path dir = context.newDirectory();
            assertThat(dir).isEmptyDirectory();
            assertThat(DIRECTORIES).doesNotContain(dir);
            DIRECTORIES.add(dir);
            Files.writeString(dir.resolve("LOCK"), "a file the backend keeps in its directory");
            return new DirectoryStore(InMemoryMetaStore.withHooks(context.raceHooks()));
        }
    }

    @AfterAll
    static void everyDirectoryWasDeleted() {
        assertThat(DIRECTORIES).as("the suite opened stores in directories").hasSizeGreaterThan(100);
        assertThat(DIRECTORIES).allSatisfy(dir -> assertThat(dir).doesNotExist());
    }

    /** Stands for a backend that lives in a directory. */
    private static final class DirectoryStore extends ForwardingMetaStore {
        DirectoryStore(MetaStore delegate) {
            super(delegate);
        }
    }
}
