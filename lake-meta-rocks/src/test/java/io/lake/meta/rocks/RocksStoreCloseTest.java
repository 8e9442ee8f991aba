package io.lake.meta.rocks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.GuardedMutation;
import io.lake.meta.KeyPrefix;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.Mutation;
import io.lake.meta.Page;
import io.lake.meta.StoreClosedException;
import io.lake.meta.WriteResult;
import io.lake.meta.spi.RaceHooks;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** close(): idempotent, refuses later calls, and never frees native handles under a call in flight. */
class RocksStoreCloseTest {

    private static final MetaKey KEY = MetaKey.of("tbl/k");
    private static final MetaValue V1 = MetaValue.utf8("v1");

    @TempDir
    Path dir;

    @Test
    void everyCallAfterClose_failsClosed_andCloseIsIdempotent() {
        MetaStore store = RocksDbMetaStore.builder().directory(dir).build();
        store.create(KEY, V1);
        store.close();
        store.close();
        assertThatThrownBy(() -> store.get(KEY))
                .isInstanceOf(StoreClosedException.class)
                .hasMessageContaining(dir.toString());
        assertThatThrownBy(() -> store.create(KEY, V1)).isInstanceOf(StoreClosedException.class);
        assertThatThrownBy(() -> store.apply(Mutation.update(KEY, V1, V1))).isInstanceOf(StoreClosedException.class);
        assertThatThrownBy(() ->
                        store.applyGuarded(new GuardedMutation(MetaKey.of("lease/l"), V1, Mutation.delete(KEY, V1))))
                .isInstanceOf(StoreClosedException.class);
        assertThatThrownBy(() -> store.page(KeyPrefix.of("tbl/"), 10)).isInstanceOf(StoreClosedException.class);
        assertThatThrownBy(() -> store.get(null)).isInstanceOf(StoreClosedException.class);
    }

    @Test
    void close_releasesTheDirectory() {
        RocksDbMetaStore.builder().directory(dir).build().close();
        try (MetaStore again = RocksDbMetaStore.builder().directory(dir).build()) {
            assertThat(again.get(KEY)).isEmpty();
        }
    }

    @Test
    void close_waitsForAGetInFlight_thenRefusesNewCalls() throws Exception {
        TestHooks hooks = new TestHooks();
        PauseAt readPaused = hooks.pause(RacePoints.READ_STARTED);
        MetaStore store =
                RocksDbMetaStore.builder().directory(dir).raceHooks(hooks).build();
        store.create(KEY, V1);

        CompletableFuture<Optional<MetaValue>> read = CompletableFuture.supplyAsync(() -> store.get(KEY));
        readPaused.awaitArrival();
        CloseInBackground close = CloseInBackground.start(store, hooks);
        close.awaitDraining();

        assertThatThrownBy(() -> store.get(KEY)).isInstanceOf(StoreClosedException.class);
        assertThat(close.isDone()).isFalse();

        readPaused.release();
        assertThat(read.get(30, TimeUnit.SECONDS)).contains(V1);
        close.awaitDone();
        assertThatThrownBy(() -> store.get(KEY)).isInstanceOf(StoreClosedException.class);
    }

    @Test
    void close_waitsForAPageInFlight() throws Exception {
        TestHooks hooks = new TestHooks();
        PauseAt readPaused = hooks.pause(RacePoints.READ_STARTED);
        MetaStore store =
                RocksDbMetaStore.builder().directory(dir).raceHooks(hooks).build();
        store.create(KEY, V1);

        CompletableFuture<Page> page = CompletableFuture.supplyAsync(() -> store.page(KeyPrefix.of("tbl/"), 10));
        readPaused.awaitArrival();
        CloseInBackground close = CloseInBackground.start(store, hooks);
        close.awaitDraining();
        assertThat(close.isDone()).isFalse();

        readPaused.release();
        assertThat(page.get(30, TimeUnit.SECONDS).entries()).hasSize(1);
        close.awaitDone();
    }

    @Test
    void close_letsACommitInFlightFinishAndPersist() throws Exception {
        TestHooks hooks = new TestHooks();
        PauseAt commitPaused = hooks.pause(RaceHooks.COMMIT_CHECKED);
        MetaStore store =
                RocksDbMetaStore.builder().directory(dir).raceHooks(hooks).build();

        CompletableFuture<WriteResult> write = CompletableFuture.supplyAsync(() -> store.create(KEY, V1));
        commitPaused.awaitArrival();
        CloseInBackground close = CloseInBackground.start(store, hooks);
        close.awaitDraining();
        assertThatThrownBy(() -> store.create(MetaKey.of("tbl/late"), V1)).isInstanceOf(StoreClosedException.class);
        assertThat(close.isDone()).isFalse();

        commitPaused.release();
        assertThat(write.get(30, TimeUnit.SECONDS)).isEqualTo(WriteResult.applied());
        close.awaitDone();

        try (MetaStore reopened = RocksDbMetaStore.builder().directory(dir).build()) {
            assertThat(reopened.get(KEY)).contains(V1);
            assertThat(reopened.get(MetaKey.of("tbl/late"))).isEmpty();
        }
    }

    @Test
    void closeUnderLoad_everyCallEitherCompletesOrFailsClosed() throws Exception {
        MetaStore store = RocksDbMetaStore.builder().directory(dir).build();
        int threads = 6;
        CountDownLatch warmedUp = new CountDownLatch(threads);
        List<CompletableFuture<Throwable>> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int id = t;
            CompletableFuture<Throwable> worker = new CompletableFuture<>();
            Thread thread = new Thread(
                    () -> {
                        MetaKey mine = MetaKey.of("load/" + id);
                        try {
                            for (int i = 0; ; i++) {
                                store.create(MetaKey.of("load/" + id + "/" + i), V1);
                                store.get(mine);
                                store.page(KeyPrefix.of("load/"), 5);
                                if (i == 3) {
                                    warmedUp.countDown();
                                }
                            }
                        } catch (Throwable e) {
                            worker.complete(e);
                        }
                    },
                    "load-" + id);
            thread.start();
            workers.add(worker);
        }
        PauseAt.await(warmedUp, "every worker to run a few calls");
        store.close();
        for (CompletableFuture<Throwable> worker : workers) {
            assertThat(worker.get(30, TimeUnit.SECONDS)).isInstanceOf(StoreClosedException.class);
        }
    }

    /**
     * A race hook that throws while close drains (as {@link PauseAt} does when its wait times out)
     * must fail that close only, not leave the store half-closed: before, close refused every call
     * but kept the native handles, the directory's lock and the watches (their listeners still
     * running), so the directory could not be opened again in this JVM.
     */
    @Test
    void aHookThatThrowsWhileCloseDrains_failsThatClose_butTheStoreStillClosesItsWatchesAndTheDirectory() {
        RaceHooks throwing = point -> {
            if (point.equals(RacePoints.CLOSE_DRAINING)) {
                throw new AssertionError("injected: the race hook at " + point + " timed out");
            }
        };
        MetaStore store =
                RocksDbMetaStore.builder().directory(dir).raceHooks(throwing).build();
        store.create(KEY, V1);
        List<io.lake.meta.watch.WatchEvent> heard = new java.util.concurrent.CopyOnWriteArrayList<>();
        io.lake.meta.watch.Watch watch = store.watch(KeyPrefix.of("tbl/"), heard::add);

        assertThatThrownBy(store::close).isInstanceOf(AssertionError.class).hasMessageContaining("injected");
        assertThatThrownBy(() -> store.watch(KeyPrefix.of("tbl/"), event -> {}))
                .as("watching a store whose close failed in its hook")
                .isInstanceOf(StoreClosedException.class);
        try (MetaStore again = RocksDbMetaStore.builder().directory(dir).build()) {
            assertThat(again.get(KEY)).contains(V1);
        }
        watch.close();
    }
}
