package io.lake.meta.rocks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.InvalidArgumentException;
import io.lake.meta.KeyPrefix;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.Page;
import io.lake.meta.PageRequest;
import io.lake.meta.ReadOnlyStoreException;
import io.lake.meta.StoreClosedException;
import io.lake.meta.Transaction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The read-only view's edges, in one process: its pages, its refusals, bad input, a closed view. */
class ReadOnlyViewTest {

    @TempDir
    Path temp;

    private Path storeWith(int keys) {
        Path dir = temp.resolve("store");
        try (MetaStore store = RocksDbMetaStore.builder().directory(dir).build()) {
            for (int i = 0; i < keys; i++) {
                store.create(MetaKey.of("tbl/ns/k" + i), MetaValue.utf8("v" + i));
            }
        }
        return dir;
    }

    @Test
    void pageTokens_continueFromTheViewOnTheStore_andBack() {
        Path dir = storeWith(5);
        try (MetaStore store = RocksDbMetaStore.builder().directory(dir).build();
                MetaStore view = RocksDbMetaStore.builder().directory(dir).buildReadOnly()) {
            KeyPrefix prefix = KeyPrefix.of("tbl/ns/");
            Page first = view.page(PageRequest.first(prefix, 2));
            Page second = store.page(PageRequest.after(prefix, first.nextToken().orElseThrow(), 2));
            Page third = view.page(PageRequest.after(prefix, second.nextToken().orElseThrow(), 2));

            assertThat(first.entries()).extracting(e -> e.key().toString()).containsExactly("tbl/ns/k0", "tbl/ns/k1");
            assertThat(second.entries()).extracting(e -> e.key().toString()).containsExactly("tbl/ns/k2", "tbl/ns/k3");
            assertThat(third.entries()).extracting(e -> e.key().toString()).containsExactly("tbl/ns/k4");
            assertThat(third.nextToken()).isEmpty();
        }
    }

    @Test
    void writes_areRefused_andBadInputIsAnInvalidArgument_nothingWritten() {
        Path dir = storeWith(1);
        try (MetaStore view = RocksDbMetaStore.builder().directory(dir).buildReadOnly()) {
            MetaKey key = MetaKey.of("tbl/ns/k0");
            assertThatThrownBy(() -> view.update(key, MetaValue.utf8("v0"), MetaValue.utf8("x")))
                    .isInstanceOf(ReadOnlyStoreException.class)
                    .satisfies(e ->
                            assertThat(((ReadOnlyStoreException) e).retryable()).isFalse());
            assertThatThrownBy(() -> view.transact(Transaction.builder()
                            .delete(key, MetaValue.utf8("v0"))
                            .build()))
                    .isInstanceOf(ReadOnlyStoreException.class);
            assertThatThrownBy(() -> view.apply(null)).isInstanceOf(InvalidArgumentException.class);
            assertThatThrownBy(() -> view.get(null)).isInstanceOf(InvalidArgumentException.class);
            assertThat(view.get(key)).contains(MetaValue.utf8("v0"));
        }
    }

    @Test
    void aClosedView_refusesCalls_andClosingTwiceIsHarmless() {
        Path dir = storeWith(1);
        MetaStore view = RocksDbMetaStore.builder().directory(dir).buildReadOnly();
        view.close();
        view.close();
        assertThatThrownBy(() -> view.get(MetaKey.of("tbl/ns/k0"))).isInstanceOf(StoreClosedException.class);
        assertThatThrownBy(() -> view.watch(KeyPrefix.of("tbl/"), event -> {}))
                .isInstanceOf(StoreClosedException.class);
    }

    @Test
    void whatIsNoStore_isRefused_asBuildRefusesIt() throws Exception {
        assertThatThrownBy(() -> RocksDbMetaStore.builder()
                        .directory(temp.resolve("missing"))
                        .buildReadOnly())
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("does not exist");
        Path empty = Files.createDirectory(temp.resolve("empty"));
        assertThatThrownBy(() -> RocksDbMetaStore.builder().directory(empty).buildReadOnly())
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("holds no store");
        Path foreign = temp.resolve("foreign");
        org.rocksdb.RocksDB.loadLibrary();
        try (org.rocksdb.Options options = new org.rocksdb.Options().setCreateIfMissing(true);
                org.rocksdb.RocksDB db = org.rocksdb.RocksDB.open(options, foreign.toString())) {
            db.put("k".getBytes(StandardCharsets.UTF_8), "v".getBytes(StandardCharsets.UTF_8));
        }
        assertThatThrownBy(() -> RocksDbMetaStore.builder().directory(foreign).buildReadOnly())
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("is not a lake-meta store");
        Path damaged = storeWith(1);
        Files.writeString(damaged.resolve("CURRENT"), "garbage\n");
        assertThatThrownBy(() -> RocksDbMetaStore.builder().directory(damaged).buildReadOnly())
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("does not hold a readable lake-meta store");
    }

    @Test
    void theBuilder_refusesCreateIfMissing_andAPollIntervalOutOfRange() {
        Path dir = storeWith(1);
        assertThatThrownBy(() -> RocksDbMetaStore.builder()
                        .directory(dir)
                        .createIfMissing(true)
                        .buildReadOnly())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("createIfMissing(true)");
        assertThatThrownBy(() -> RocksDbMetaStore.builder().pollInterval(Duration.ofMillis(1)))
                .isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> RocksDbMetaStore.builder().pollInterval(null))
                .isInstanceOf(InvalidArgumentException.class);
    }
}
