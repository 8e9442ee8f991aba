package io.lake.meta.rocks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.KeyPrefix;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.PageRequest;
import io.lake.meta.ReadOnlyStoreException;
import io.lake.meta.StoreUnavailableException;
import io.lake.meta.watch.WatchEvent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A second process reads a store a running service holds: the service (a child JVM) keeps the
 * store open and writes on request; this process opens the read-only view, reads what the
 * service wrote, follows its new writes through a watch, and cannot write.
 */
class ReadOnlyViewTwoProcessTest {

    @TempDir
    Path temp;

    @Test
    void aReadOnlyView_readsAndWatches_aStoreAnotherProcessHoldsAndWrites() throws Exception {
        Path dir = temp.resolve("store");
        try (MetaStore created = RocksDbMetaStore.builder().directory(dir).build()) {
            created.create(MetaKey.of("tbl/ns/a"), MetaValue.utf8("1"));
        }
        try (ChildJvm service = ChildJvm.start(temp, "serve", dir.toString())) {
            service.awaitLine("OPEN");
            service.send("put tbl/ns/b 2");
            service.awaitLine("PUT tbl/ns/b");

            assertThatThrownBy(() -> RocksDbMetaStore.builder().directory(dir).build())
                    .as("a read-write open of the held store")
                    .isInstanceOf(StoreUnavailableException.class)
                    .hasMessageContaining("is in use by another process");

            SecondaryStore view = (SecondaryStore) RocksDbMetaStore.builder()
                    .directory(dir)
                    .pollInterval(Duration.ofHours(1))
                    .buildReadOnly();
            try (view) {
                assertThat(view.get(MetaKey.of("tbl/ns/a"))).contains(MetaValue.utf8("1"));
                assertThat(view.get(MetaKey.of("tbl/ns/b")))
                        .as("written by the service after it opened the store")
                        .contains(MetaValue.utf8("2"));

                LinkedBlockingQueue<WatchEvent> heard = new LinkedBlockingQueue<>();
                view.watch(KeyPrefix.of("tbl/ns/"), heard::add);
                assertThat(heard.poll(30, TimeUnit.SECONDS))
                        .isEqualTo(WatchEvent.initial(MetaKey.of("tbl/ns/a"), MetaValue.utf8("1")));
                assertThat(heard.poll(30, TimeUnit.SECONDS))
                        .isEqualTo(WatchEvent.initial(MetaKey.of("tbl/ns/b"), MetaValue.utf8("2")));

                service.send("put tbl/ns/c 3");
                service.awaitLine("PUT tbl/ns/c");
                service.send("put tbl/ns/a 4");
                service.awaitLine("PUT tbl/ns/a");
                view.pollNow();
                assertThat(heard.poll(30, TimeUnit.SECONDS))
                        .isEqualTo(WatchEvent.changed(MetaKey.of("tbl/ns/a"), MetaValue.utf8("4")));
                assertThat(heard.poll(30, TimeUnit.SECONDS))
                        .isEqualTo(WatchEvent.changed(MetaKey.of("tbl/ns/c"), MetaValue.utf8("3")));
                assertThat(view.page(PageRequest.first(KeyPrefix.of("tbl/ns/"), 10))
                                .entries())
                        .hasSize(3);

                assertThatThrownBy(() -> view.create(MetaKey.of("tbl/ns/d"), MetaValue.utf8("5")))
                        .isInstanceOf(ReadOnlyStoreException.class)
                        .hasMessageContaining("read-only view");
            }
            service.send("put tbl/ns/e 6");
            service.awaitLine("PUT tbl/ns/e");
            assertThat(service.finish()).as(service.stderr()).isZero();
        }
        try (MetaStore reopened = RocksDbMetaStore.builder().directory(dir).build()) {
            assertThat(reopened.get(MetaKey.of("tbl/ns/d")))
                    .as("the view wrote nothing")
                    .isEmpty();
            assertThat(reopened.get(MetaKey.of("tbl/ns/e"))).contains(MetaValue.utf8("6"));
        }
        try (var files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString()))
                    .as("the view left no file in the store's directory")
                    .noneMatch(name -> name.contains("secondary"));
        }
    }
}
