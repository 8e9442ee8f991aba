package io.lake.meta.rocks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.MetaKey;
import io.lake.meta.MetaValue;
import io.lake.meta.StoreUnavailableException;
import io.lake.meta.Transaction;
import io.lake.meta.spi.RaceHooks;
import io.lake.meta.spi.WatchRegistry;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;

/** A commit whose staging fails part-way leaves none of its mutations in the batch that is written. */
class GroupCommitStagingTest {

    static {
        RocksDB.loadLibrary(); // WriteBatch is native; no store is opened here to load it
    }

    private static final MetaKey A = MetaKey.of("tbl/t/a");
    private static final MetaKey B = MetaKey.of("tbl/t/b");
    private static final MetaValue V = MetaValue.utf8("v");

    private final List<Integer> writtenBatchSizes = new CopyOnWriteArrayList<>();
    private final WriteGroup committer = new WriteGroup(
            new BatchCommit(
                    key -> Optional.empty(),
                    (batch, mutation) -> {
                        if (mutation.key().equals(B)) {
                            throw new RocksDBException("injected: staging " + B + " fails");
                        }
                        RocksStore.stage(batch, mutation);
                    },
                    (WriteBatch batch) -> writtenBatchSizes.add(batch.count()),
                    RaceHooks.NONE,
                    BatchCommit.ChangePublisher.of(new WatchRegistry("staging test")),
                    "staging test"),
            RaceHooks.NONE,
            WaitingWriters.YIELD_THEN_PARK,
            "staging test",
            "staging-test-committer");

    @AfterEach
    void stop() {
        committer.stop();
    }

    @Test
    void aTransactionWhoseSecondMutationCannotBeStaged_writesNoneOfIt() {
        committer.start();
        Transaction both = Transaction.builder().create(A, V).create(B, V).build();

        assertThatThrownBy(() -> committer.commit(Commit.of(both)))
                .isInstanceOf(StoreUnavailableException.class)
                .hasMessageContaining("none of its mutations were written");

        assertThat(writtenBatchSizes).as("sizes of the batches written").isEmpty();
        assertThat(committer
                        .commit(Commit.of(Transaction.builder().create(A, V).build()))
                        .applies())
                .isTrue();
        assertThat(writtenBatchSizes)
                .as("the next commit alone is written, one entry")
                .containsExactly(1);
    }
}
