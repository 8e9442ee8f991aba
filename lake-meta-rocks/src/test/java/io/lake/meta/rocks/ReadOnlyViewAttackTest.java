package io.lake.meta.rocks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.KeyPrefix;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.PageRequest;
import io.lake.meta.StoreUnavailableException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Attacks on the read-only view: the holder reopening, its directory going away, scratch directories. */
class ReadOnlyViewAttackTest {

    @TempDir
    Path temp;

    @Test
    void theHolderClosingAndReopening_newManifestsEachTime_theViewFollows() {
        Path dir = temp.resolve("store");
        MetaKey first = MetaKey.of("tbl/ns/first");
        try (MetaStore store = RocksDbMetaStore.builder().directory(dir).build()) {
            store.create(first, MetaValue.utf8("1"));
        }
        try (MetaStore view = RocksDbMetaStore.builder().directory(dir).buildReadOnly()) {
            assertThat(view.get(first)).contains(MetaValue.utf8("1"));
            for (int round = 0; round < 4; round++) {
                try (MetaStore store = RocksDbMetaStore.builder().directory(dir).build()) {
                    store.create(MetaKey.of("tbl/ns/r" + round), MetaValue.utf8("v" + round));
                    assertThat(view.get(MetaKey.of("tbl/ns/r" + round))).contains(MetaValue.utf8("v" + round));
                    if (round == 2) {
                        store.delete(first, MetaValue.utf8("1"));
                    }
                }
                // the holder closed: its log went into a table file, a new MANIFEST on the next open
                assertThat(view.get(MetaKey.of("tbl/ns/r" + round)))
                        .as("round %d after close", round)
                        .contains(MetaValue.utf8("v" + round));
            }
            assertThat(view.get(first)).isEmpty();
            assertThat(view.page(PageRequest.first(KeyPrefix.of("tbl/ns/"), 100))
                            .entries())
                    .extracting(e -> e.key().toString())
                    .containsExactly("tbl/ns/r0", "tbl/ns/r1", "tbl/ns/r2", "tbl/ns/r3");
        }
    }

    @Test
    void theViewReadingOnlyAfterTheHolderReopenedTwice_seesTheLatest_notTheLogItMissed() {
        Path dir = temp.resolve("store");
        MetaKey key = MetaKey.of("tbl/ns/k");
        try (MetaStore store = RocksDbMetaStore.builder().directory(dir).build()) {
            store.create(key, MetaValue.utf8("0"));
        }
        try (MetaStore view = RocksDbMetaStore.builder().directory(dir).buildReadOnly()) {
            assertThat(view.get(key)).contains(MetaValue.utf8("0"));
            try (MetaStore store = RocksDbMetaStore.builder()
                    .directory(dir)
                    .durability(Durability.UNSYNCED_WAL)
                    .build()) {
                store.update(key, MetaValue.utf8("0"), MetaValue.utf8("1"));
                store.create(MetaKey.of("tbl/ns/gone"), MetaValue.utf8("g"));
            }
            try (MetaStore store = RocksDbMetaStore.builder().directory(dir).build()) {
                store.update(key, MetaValue.utf8("1"), MetaValue.utf8("2"));
                store.delete(MetaKey.of("tbl/ns/gone"), MetaValue.utf8("g"));
                assertThat(view.getAll(List.of(key, MetaKey.of("tbl/ns/gone"))))
                        .containsExactly(java.util.Map.entry(key, MetaValue.utf8("2")));
            }
            assertThat(view.get(key)).contains(MetaValue.utf8("2"));
            assertThat(view.get(MetaKey.of("tbl/ns/gone"))).isEmpty();
        }
    }

    @Test
    void theStoreDirectoryDeletedUnderTheView_readsFailTyped() throws IOException {
        Path dir = temp.resolve("store");
        MetaKey key = MetaKey.of("tbl/ns/k");
        try (MetaStore store = RocksDbMetaStore.builder().directory(dir).build()) {
            store.create(key, MetaValue.utf8("v"));
        }
        try (MetaStore view = RocksDbMetaStore.builder().directory(dir).buildReadOnly()) {
            assertThat(view.get(key)).contains(MetaValue.utf8("v"));
            deleteTree(dir);
            // a fresh, different store in its place
            try (MetaStore other = RocksDbMetaStore.builder().directory(dir).build()) {
                other.create(MetaKey.of("tbl/ns/other"), MetaValue.utf8("o"));
                other.delete(MetaKey.of("tbl/ns/other"), MetaValue.utf8("o"));
            }
            // either it fails typed or it answers the truth about the directory: never the old key
            try {
                assertThat(view.get(key)).as("a key of the deleted store").isEmpty();
            } catch (StoreUnavailableException expected) {
                // typed: fine
            }
        }
    }

    @Test
    void aFailedOpen_leavesNoScratchDirectory() throws IOException {
        Path dir = temp.resolve("store");
        try (MetaStore store = RocksDbMetaStore.builder().directory(dir).build()) {
            store.create(MetaKey.of("tbl/ns/k"), MetaValue.utf8("v"));
        }
        Files.writeString(dir.resolve("CURRENT"), "garbage\n");
        List<Path> before = scratchDirectories();
        assertThatThrownBy(() -> RocksDbMetaStore.builder().directory(dir).buildReadOnly())
                .isInstanceOf(io.lake.meta.InvalidArgumentException.class);
        assertThat(scratchDirectories()).containsExactlyInAnyOrderElementsOf(before);
    }

    @Test
    void aClosedView_leavesNoScratchDirectory() throws IOException {
        Path dir = temp.resolve("store");
        try (MetaStore store = RocksDbMetaStore.builder().directory(dir).build()) {
            store.create(MetaKey.of("tbl/ns/k"), MetaValue.utf8("v"));
        }
        List<Path> before = scratchDirectories();
        try (MetaStore store = RocksDbMetaStore.builder().directory(dir).build();
                MetaStore view = RocksDbMetaStore.builder().directory(dir).buildReadOnly()) {
            for (int i = 0; i < 50; i++) {
                store.create(MetaKey.of("tbl/ns/n" + i), MetaValue.utf8("v"));
                assertThat(view.get(MetaKey.of("tbl/ns/n" + i))).isPresent();
            }
        }
        assertThat(scratchDirectories()).containsExactlyInAnyOrderElementsOf(before);
    }

    @Test
    void badDirectories_areRefused_andNothingOnDiskChanges() throws Exception {
        org.rocksdb.RocksDB.loadLibrary();
        Path emptyDatabase = temp.resolve("empty-db");
        try (org.rocksdb.Options options = new org.rocksdb.Options().setCreateIfMissing(true);
                org.rocksdb.RocksDB db = org.rocksdb.RocksDB.open(options, emptyDatabase.toString())) {
            // nothing written: what the opener adopts as a new store
        }
        Path foreignWithLog = temp.resolve("foreign-log");
        try (org.rocksdb.Options options = new org.rocksdb.Options().setCreateIfMissing(true);
                org.rocksdb.RocksDB db = org.rocksdb.RocksDB.open(options, foreignWithLog.toString())) {
            db.put(
                    "k".getBytes(java.nio.charset.StandardCharsets.UTF_8),
                    "v".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
        Path noIdentity = temp.resolve("no-identity");
        try (MetaStore store = RocksDbMetaStore.builder().directory(noIdentity).build()) {
            store.create(MetaKey.of("tbl/ns/k"), MetaValue.utf8("v"));
        }
        Files.delete(noIdentity.resolve("IDENTITY"));
        refusedAndUnchanged(foreignWithLog);
        refusedAndUnchanged(noIdentity);
        // no lake-meta store either: build() would adopt it, but a view cannot, and must not call it an empty store
        refusedAndUnchanged(emptyDatabase);
    }

    private static void refusedAndUnchanged(Path dir) {
        DirectorySnapshot before = DirectorySnapshot.of(dir);
        Throwable thrown = org.assertj.core.api.Assertions.catchThrowable(
                () -> RocksDbMetaStore.builder().directory(dir).buildReadOnly().close());
        assertThat(thrown)
                .as("opening a view on " + dir.getFileName())
                .isInstanceOf(io.lake.meta.InvalidArgumentException.class);
        assertThat(DirectorySnapshot.of(dir)).as(dir.getFileName().toString()).isEqualTo(before);
    }

    private static List<Path> scratchDirectories() throws IOException {
        try (Stream<Path> children = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            return children.filter(p -> p.getFileName().toString().startsWith("lake-meta-secondary-"))
                    .toList();
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }
}
