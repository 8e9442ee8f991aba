package io.lake.meta.rocks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.KeyPrefix;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.OutcomeUnknownException;
import io.lake.meta.WriteResult;
import io.lake.meta.spi.RaceHooks;
import io.lake.meta.watch.WatchEvent;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.RocksDBException;

/**
 * Watches on RocksDB, where the committer publishes each written batch: what a failed batch
 * write reports, and a watch registered while a batch is between its check, its write and its
 * publication. Races are ordered with race hooks and latches in the batch writer, not with sleeps.
 * Each test waits for the initial event before the change it checks is published: a pending event
 * is replaced by a newer one of the same key (the contract allows it), which would hide the order.
 */
class RocksWatchTest {

    private static final KeyPrefix NS1 = KeyPrefix.of("tbl/ns1/");
    private static final MetaKey K = MetaKey.of("tbl/ns1/k");
    private static final MetaKey LATER = MetaKey.of("tbl/ns1/later");

    @TempDir
    Path dir;

    private final TestHooks hooks = new TestHooks();

    private static MetaValue v(String text) {
        return MetaValue.utf8(text);
    }

    /** Collects events and waits (bounded) for one that matches. */
    private static final class Heard {
        private final List<WatchEvent> events = new ArrayList<>();

        synchronized void add(WatchEvent event) {
            events.add(event);
            notifyAll();
        }

        synchronized List<WatchEvent> awaitFirst(Predicate<WatchEvent> expected) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (events.stream().noneMatch(expected)) {
                long left = deadline - System.nanoTime();
                assertThat(left)
                        .as("an expected event arrived in time; heard %s", events)
                        .isPositive();
                TimeUnit.NANOSECONDS.timedWait(this, left);
            }
            return List.copyOf(events);
        }
    }

    private static Predicate<WatchEvent> value(MetaKey key, String text) {
        return e -> e.key().equals(key) && e.value().filter(v(text)::equals).isPresent();
    }

    @Test
    void aBatchWriteThatFailedWithoutEffect_isNotReported() throws Exception {
        AtomicBoolean fail = new AtomicBoolean();
        UnaryOperator<BatchCommit.BatchWriter> failing = real -> batch -> {
            if (fail.get()) {
                throw new RocksDBException("injected write failure, nothing written");
            }
            real.write(batch);
        };
        try (MetaStore store = StoreOpener.open(dir, Durability.SYNCED_WAL, true, hooks, failing)) {
            store.create(K, v("1"));
            Heard heard = new Heard();
            store.watch(NS1, heard::add);

            fail.set(true);
            assertThatThrownBy(() -> store.update(K, v("1"), v("2"))).isInstanceOf(OutcomeUnknownException.class);
            fail.set(false);
            store.create(LATER, v("x"));

            // commits are published in commit order: a report of the failed batch would come first
            assertThat(heard.awaitFirst(value(LATER, "x")))
                    .containsExactly(WatchEvent.initial(K, v("1")), WatchEvent.changed(LATER, v("x")));
        }
    }

    @Test
    void aBatchWriteThatFailedAfterTakingEffect_isReported_withTheValueReadBack() throws Exception {
        AtomicBoolean failAfterWriting = new AtomicBoolean();
        UnaryOperator<BatchCommit.BatchWriter> writesThenFails = real -> batch -> {
            real.write(batch);
            if (failAfterWriting.get()) {
                throw new RocksDBException("injected failure after the write took effect");
            }
        };
        try (MetaStore store = StoreOpener.open(dir, Durability.SYNCED_WAL, true, hooks, writesThenFails)) {
            store.create(K, v("1"));
            Heard heard = new Heard();
            store.watch(NS1, heard::add);
            heard.awaitFirst(value(K, "1")); // taken, so the change cannot replace it while pending

            failAfterWriting.set(true);
            assertThatThrownBy(() -> store.update(K, v("1"), v("2"))).isInstanceOf(OutcomeUnknownException.class);

            assertThat(store.get(K)).contains(v("2"));
            assertThat(heard.awaitFirst(value(K, "2")))
                    .containsExactly(WatchEvent.initial(K, v("1")), WatchEvent.changed(K, v("2")));
        }
    }

    @Test
    void aWatchRegisteredWhileACommitIsCheckedButNotWritten_hearsTheOldValueFirst_thenTheCommit() throws Exception {
        AtomicReference<RaceHooks> armed = new AtomicReference<>(RaceHooks.NONE);
        PauseAt update = new PauseAt(RaceHooks.COMMIT_CHECKED);
        try (MetaStore store = StoreOpener.open(
                dir, Durability.SYNCED_WAL, true, point -> armed.get().reached(point), UnaryOperator.identity())) {
            store.create(K, v("1"));
            armed.set(update);
            CompletableFuture<WriteResult> writer =
                    CompletableFuture.supplyAsync(() -> store.update(K, v("1"), v("2")));
            update.awaitArrival(); // checked, not yet written

            Heard heard = new Heard();
            store.watch(NS1, heard::add);
            heard.awaitFirst(value(K, "1")); // the initial event, taken before the commit can replace it
            update.release();

            assertThat(writer.get(30, TimeUnit.SECONDS)).isEqualTo(WriteResult.applied());
            assertThat(heard.awaitFirst(value(K, "2")))
                    .containsExactly(WatchEvent.initial(K, v("1")), WatchEvent.changed(K, v("2")));
        }
    }

    @Test
    void aWatchRegisteredWhileABatchIsWrittenButNotPublished_neverHearsTheOlderValue() throws Exception {
        AtomicBoolean hold = new AtomicBoolean();
        CountDownLatch written = new CountDownLatch(1);
        CountDownLatch publish = new CountDownLatch(1);
        UnaryOperator<BatchCommit.BatchWriter> holdAfterWriting = real -> batch -> {
            real.write(batch);
            if (hold.get()) {
                written.countDown();
                PauseAt.await(publish, "the test to let the committer publish");
            }
        };
        try (MetaStore store = StoreOpener.open(dir, Durability.SYNCED_WAL, true, hooks, holdAfterWriting)) {
            store.create(K, v("1"));
            hold.set(true);
            CompletableFuture<WriteResult> writer =
                    CompletableFuture.supplyAsync(() -> store.update(K, v("1"), v("2")));
            PauseAt.await(written, "the batch to be written");

            Heard heard = new Heard();
            store.watch(NS1, heard::add); // reads k = 2: written, not yet published
            heard.awaitFirst(value(K, "2")); // the initial event, taken before the publication can replace it
            hold.set(false);
            publish.countDown();
            assertThat(writer.get(30, TimeUnit.SECONDS)).isEqualTo(WriteResult.applied());
            store.create(LATER, v("x"));

            List<WatchEvent> events = heard.awaitFirst(value(LATER, "x"));
            assertThat(events).first().isEqualTo(WatchEvent.initial(K, v("2")));
            assertThat(events)
                    .as("the commit is reported again (at least once), never the value before it")
                    .filteredOn(e -> e.key().equals(K))
                    .allMatch(e -> e.value().equals(java.util.Optional.of(v("2"))));
        }
    }
}
