package io.lake.meta.rocks;

import static org.assertj.core.api.Assertions.assertThat;

import io.lake.meta.MetaKey;
import io.lake.meta.MetaValue;
import io.lake.meta.Mutation;
import io.lake.meta.spi.RaceHooks;
import io.lake.meta.watch.WatchEvent;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.rocksdb.RocksDB;
import org.rocksdb.WriteBatch;

/**
 * Issue 23, item 5: once a batch is written, nothing that follows (handing its changes to the
 * watches, remembering its values) may turn it into "not written". The watches here throw an
 * {@link Error} the first time they are handed a batch.
 */
class GroupCommitAfterWriteTest {

    static {
        RocksDB.loadLibrary(); // WriteBatch is native; no store is opened here to load it
    }

    private static final MetaKey A = MetaKey.of("tbl/t/a");
    private static final MetaKey B = MetaKey.of("tbl/t/b");
    private static final MetaValue V = MetaValue.utf8("v");

    private final List<Integer> writtenBatchSizes = new CopyOnWriteArrayList<>();
    private final List<WatchEvent> published = new CopyOnWriteArrayList<>();
    private final AtomicBoolean failNextPublish = new AtomicBoolean(true);
    private final WriteGroup committer = new WriteGroup(
            new BatchCommit(
                    key -> Optional.empty(),
                    RocksStore::stage,
                    (WriteBatch batch) -> writtenBatchSizes.add(batch.count()),
                    RaceHooks.NONE,
                    new BatchCommit.ChangePublisher() {
                        @Override
                        public boolean wanted() {
                            return true;
                        }

                        @Override
                        public void publish(List<WatchEvent> changes) {
                            if (failNextPublish.getAndSet(false)) {
                                throw new OutOfMemoryError("injected: handing the written batch to the watches failed");
                            }
                            published.addAll(changes);
                        }
                    },
                    "after-write test"),
            RaceHooks.NONE,
            WaitingWriters.YIELD_THEN_PARK,
            "after-write test",
            "after-write-test-committer");

    @AfterEach
    void stop() {
        committer.stop();
    }

    @Test
    void anErrorWhileHandingAWrittenBatchToTheWatches_leavesItsAnswerApplied_andLaterBatchesArePublished() {
        committer.start();

        Commit.Decision first = committer.commit(Commit.plain(Mutation.create(A, V)));

        assertThat(writtenBatchSizes).as("the batch was written").containsExactly(1);
        assertThat(first.applies()).as("the written commit's answer").isTrue();
        assertThat(committer.commit(Commit.plain(Mutation.create(B, V))).applies())
                .isTrue();
        assertThat(published).containsExactly(WatchEvent.changed(B, V));
    }
}
