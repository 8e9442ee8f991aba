package io.lake.meta.rocks;

import static org.assertj.core.api.Assertions.assertThat;

import io.lake.meta.MetaKey;
import io.lake.meta.MetaStoreException;
import io.lake.meta.MetaValue;
import io.lake.meta.Mutation;
import io.lake.meta.spi.RaceHooks;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.rocksdb.RocksDB;
import org.rocksdb.WriteBatch;

/**
 * A batch whose {@code clear()} fails still holds its writes, so it must never be written again:
 * the committer stops. Before, only {@code commit()} looked at the stop; a writer already queued
 * behind that batch was handed the lead, staged its commit on top of the uncleared batch and wrote
 * both, the previous batch's writes a second time.
 */
class GroupCommitUnclearedBatchTest {

    static {
        RocksDB.loadLibrary(); // WriteBatch is native; no store is opened here to load it
    }

    private static final MetaKey A = MetaKey.of("tbl/t/a");
    private static final MetaKey B = MetaKey.of("tbl/t/b");
    private static final MetaValue V = MetaValue.utf8("v");

    private final List<Integer> writtenBatchSizes = new CopyOnWriteArrayList<>();
    private final CountDownLatch firstChecked = new CountDownLatch(1);
    private final CountDownLatch releaseFirst = new CountDownLatch(1);
    private final AtomicInteger checks = new AtomicInteger();
    private final AtomicInteger queued = new AtomicInteger();
    private final CountDownLatch secondQueued = new CountDownLatch(1);

    /** Holds the first commit's leader after its check, until the second writer is queued. */
    private final RaceHooks hooks = point -> {
        if (point.equals(RacePoints.COMMIT_QUEUED) && queued.incrementAndGet() == 2) {
            secondQueued.countDown();
        }
        if (point.equals(RaceHooks.COMMIT_CHECKED) && checks.incrementAndGet() == 1) {
            firstChecked.countDown();
            await(releaseFirst);
        }
    };

    /** A batch whose first clear fails (as a native call can), leaving its writes in it. */
    private final WriteBatch failsToClearOnce = new WriteBatch() {
        private final AtomicBoolean failed = new AtomicBoolean();

        @Override
        public void clear() {
            if (failed.compareAndSet(false, true)) {
                throw new IllegalStateException("injected: clearing the write batch failed");
            }
            super.clear();
        }
    };

    private final WriteGroup committer = new WriteGroup(
            new BatchCommit(
                    key -> Optional.empty(),
                    RocksStore::stage,
                    (WriteBatch batch) -> writtenBatchSizes.add(batch.count()),
                    hooks,
                    BatchCommit.ChangePublisher.of(new io.lake.meta.spi.WatchRegistry("uncleared-batch test")),
                    "uncleared-batch test",
                    failsToClearOnce),
            hooks,
            WaitingWriters.PARK,
            "uncleared-batch test",
            "uncleared-batch-test-committer");

    @AfterEach
    void stop() {
        releaseFirst.countDown();
        committer.stop();
    }

    @Test
    void aWriterQueuedBehindABatchThatCouldNotBeCleared_isRefused_andTheBatchIsNotWrittenAgain() throws Exception {
        committer.start();
        CompletableFuture<Commit.Decision> first =
                CompletableFuture.supplyAsync(() -> committer.commit(Commit.plain(Mutation.create(A, V))));
        await(firstChecked);
        CompletableFuture<Commit.Decision> second =
                CompletableFuture.supplyAsync(() -> committer.commit(Commit.plain(Mutation.create(B, V))));
        await(secondQueued);
        releaseFirst.countDown();

        Throwable firstFailure = outcome(first);
        Throwable secondFailure = outcome(second);

        assertThat(writtenBatchSizes)
                .as("batches written (the first holds one write)")
                .containsExactly(1);
        assertThat(firstFailure)
                .as("the first batch was written: its answer stands")
                .isNull();
        assertThat(secondFailure).as("the queued writer's commit is refused").isInstanceOf(MetaStoreException.class);
    }

    /**
     * The batch that could not be cleared stops the committer; the store's close stops it again,
     * and that stop must still free the batch's native memory (a {@link WriteBatch} has no
     * finalizer). Before, the stop returned early because the committer was already stopped.
     */
    @Test
    void aBatchThatCouldNotBeCleared_isFreedWhenTheCommitterIsStopped() throws Exception {
        committer.start();
        releaseFirst.countDown(); // nobody else races this commit
        assertThat(committer.commit(Commit.plain(Mutation.create(A, V))).applies())
                .isTrue();

        committer.stop();

        assertThat(writtenBatchSizes).as("the batch was written once").containsExactly(1);
        assertThat(failsToClearOnce.isOwningHandle())
                .as("the batch's native handle is still held")
                .isFalse();
    }

    private static Throwable outcome(CompletableFuture<Commit.Decision> f) throws Exception {
        try {
            assertThat(f.get(30, TimeUnit.SECONDS).applies()).isTrue();
            return null;
        } catch (ExecutionException e) {
            return e.getCause();
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            assertThat(latch.await(30, TimeUnit.SECONDS))
                    .as("a hook's latch timed out")
                    .isTrue();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
