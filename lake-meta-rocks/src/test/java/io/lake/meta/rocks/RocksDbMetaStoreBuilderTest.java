package io.lake.meta.rocks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.spi.RaceHooks;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Builder options, their defaults and misconfiguration. */
class RocksDbMetaStoreBuilderTest {

    @TempDir
    Path dir;

    @Test
    void build_withoutDirectory_failsSayingWhatToDo() {
        assertThatThrownBy(() -> RocksDbMetaStore.builder().build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("directory(path)");
    }

    @Test
    void nullOptions_failFast_withTheProjectsInvalidArgumentException() {
        assertThatThrownBy(() -> RocksDbMetaStore.builder().directory(null))
                .isInstanceOf(io.lake.meta.InvalidArgumentException.class)
                .hasMessageContaining("directory");
        assertThatThrownBy(() -> RocksDbMetaStore.builder().durability(null))
                .isInstanceOf(io.lake.meta.InvalidArgumentException.class)
                .hasMessageContaining("durability");
        assertThatThrownBy(() -> RocksDbMetaStore.builder().raceHooks(null))
                .isInstanceOf(io.lake.meta.InvalidArgumentException.class)
                .hasMessageContaining("RaceHooks.NONE");
        assertThatThrownBy(() -> RocksDbMetaStore.builder().waitingWriters(null))
                .isInstanceOf(io.lake.meta.InvalidArgumentException.class)
                .hasMessageContaining("WaitingWriters.PARK");
    }

    @Test
    void optionsSetTwice_failFast() {
        assertThatThrownBy(() -> RocksDbMetaStore.builder().directory(dir).directory(dir))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("directory was already set");
        assertThatThrownBy(() -> RocksDbMetaStore.builder()
                        .durability(Durability.SYNCED_WAL)
                        .durability(Durability.SYNCED_WAL))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("durability was already set");
        assertThatThrownBy(
                        () -> RocksDbMetaStore.builder().createIfMissing(true).createIfMissing(false))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("createIfMissing was already set");
        assertThatThrownBy(() ->
                        RocksDbMetaStore.builder().raceHooks(RaceHooks.NONE).raceHooks(RaceHooks.NONE))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("raceHooks was already set");
        assertThatThrownBy(() -> RocksDbMetaStore.builder()
                        .waitingWriters(WaitingWriters.PARK)
                        .waitingWriters(WaitingWriters.PARK))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("waitingWriters was already set");
    }

    @Test
    void defaultDurability_syncsTheWal() {
        try (MetaStore store = RocksDbMetaStore.builder().directory(dir).build()) {
            assertThat(((RocksStore) store).syncsWrites()).isTrue();
        }
    }

    @Test
    void unsyncedDurability_writesTheWalWithoutSync() {
        try (MetaStore store = RocksDbMetaStore.builder()
                .directory(dir)
                .durability(Durability.UNSYNCED_WAL)
                .build()) {
            assertThat(((RocksStore) store).syncsWrites()).isFalse();
            assertThat(((RocksStore) store).writesWal()).isTrue();
        }
    }

    @ParameterizedTest
    @EnumSource(Durability.class)
    void reopen_keepsData(Durability durability) {
        MetaKey a = MetaKey.of("tbl/a");
        MetaKey b = MetaKey.of("tbl/b");
        try (MetaStore store =
                RocksDbMetaStore.builder().directory(dir).durability(durability).build()) {
            store.create(a, MetaValue.utf8("1"));
            store.create(b, MetaValue.utf8("1"));
            store.update(a, MetaValue.utf8("1"), MetaValue.utf8("2"));
            store.delete(b, MetaValue.utf8("1"));
        }
        try (MetaStore store =
                RocksDbMetaStore.builder().directory(dir).durability(durability).build()) {
            assertThat(store.get(a)).contains(MetaValue.utf8("2"));
            assertThat(store.get(b)).isEmpty();
        }
    }
}
