package io.lake.meta.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.StoreClosedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class TempDirStoreExtensionTest {

    private static final List<Path> DIRECTORIES = new CopyOnWriteArrayList<>();
    private static final List<MetaStore> STORES = new CopyOnWriteArrayList<>();

    /** A factory that ignores nothing it is given: it records the directory and leaves a file in it. */
    @RegisterExtension
    static final TempDirStoreExtension STORE = TempDirStoreExtension.of(dir -> {
        assertThat(dir).isEmptyDirectory();
        Files.writeString(dir.resolve("LOCK"), "held by the store");
        Files.createDirectories(dir.resolve("wal/segments"));
        Files.writeString(dir.resolve("wal/segments/000001.log"), "data");
        DIRECTORIES.add(dir);
        MetaStore store = InMemoryMetaStore.create();
        STORES.add(store);
        return store;
    });

    private MetaStore fromBeforeEach;

    @BeforeEach
    void receiveTheStore(MetaStore store) {
        fromBeforeEach = store;
    }

    @Test
    void injectsAFreshEmptyStore_intoTestAndBeforeEachMethods(MetaStore store) {
        assertThat(store).isSameAs(fromBeforeEach).isSameAs(STORE.store());
        assertThat(store.get(MetaKey.of("tbl/a"))).isEmpty();
        assertThat(store.create(MetaKey.of("tbl/a"), MetaValue.utf8("x")).isApplied())
                .isTrue();
    }

    @Test
    void eachTestGetsItsOwnStoreAndDirectory(MetaStore store) {
        assertThat(store.get(MetaKey.of("tbl/a")))
                .as("nothing leaks from another test")
                .isEmpty();
        assertThat(STORE.directory()).exists().isDirectory();
        store.create(MetaKey.of("tbl/a"), MetaValue.utf8("y"));
    }

    @Test
    void directoryIsTheOneTheFactoryReceived() {
        assertThat(DIRECTORIES).contains(STORE.directory());
        assertThat(STORE.directory().resolve("LOCK")).exists();
    }

    @AfterAll
    static void everyStoreWasClosedAndEveryDirectoryDeleted() {
        assertThat(DIRECTORIES).hasSize(3).doesNotHaveDuplicates();
        assertThat(STORES).hasSize(3).doesNotHaveDuplicates();
        for (Path dir : DIRECTORIES) {
            assertThat(dir).as("directory of a finished test").doesNotExist();
        }
        for (MetaStore store : STORES) {
            assertThatThrownBy(() -> store.get(MetaKey.of("tbl/a")))
                    .as("store of a finished test")
                    .isInstanceOf(StoreClosedException.class);
        }
    }
}
