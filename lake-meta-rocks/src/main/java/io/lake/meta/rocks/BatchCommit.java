package io.lake.meta.rocks;

import io.lake.meta.MetaKey;
import io.lake.meta.MetaStoreException;
import io.lake.meta.MetaValue;
import io.lake.meta.Mutation;
import io.lake.meta.OutcomeUnknownException;
import io.lake.meta.StoreUnavailableException;
import io.lake.meta.spi.RaceHooks;
import io.lake.meta.spi.WatchRegistry;
import io.lake.meta.watch.WatchEvent;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One batch's work, done by the writer that leads it (the {@link WriteGroup} decides who leads and
 * which commits a batch holds; this does what RocksDB's {@code db_impl_write.cc} does with its
 * write group). It checks each commit in arrival order against the database plus the batch's own
 * earlier writes ({@link BatchView}), writes the whole batch as one {@link WriteBatch} with one
 * write (one WAL sync under {@link Durability#SYNCED_WAL}), and gives every commit of the batch
 * its answer, which the write group hands to the writers only after all of this: no answer
 * (conflicts included, which may depend on earlier commits of the batch) is given before the batch
 * is durable. If the batch write fails, every commit in it fails with
 * {@link OutcomeUnknownException}: RocksDB may have logged part of it before failing.
 *
 * <p>Watches: once a batch is written, and before any answer is given, the writes of its applied
 * commits are published, in batch order, to the store's {@link WatchRegistry}, which never runs a
 * listener on this thread. After a failed batch write nothing is known, so every key the batch
 * would have changed is read back from the database and those that no longer hold what they held
 * before the batch are published (the write took effect after all); keys that still hold their old
 * value are not reported. A failed staging wrote nothing and publishes nothing. Nothing after a
 * successful write (publishing, remembering the written values) can change an answer: a failure
 * there, an {@link Error} included, is logged and costs at most the watches' events of that batch
 * or the remembered values.
 *
 * <p>Not thread-safe: only the writer holding the write group's lead uses it, and the lead passes
 * from writer to writer through the write group's lock.
 */
final class BatchCommit {

    private static final Logger LOG = LoggerFactory.getLogger(BatchCommit.class);

    /** Writes one batch; RocksDB's write in production, a failing one in tests. */
    @FunctionalInterface
    interface BatchWriter {
        void write(WriteBatch batch) throws RocksDBException;
    }

    /** Where written changes go: the store's {@link WatchRegistry} in production, a failing one in tests. */
    interface ChangePublisher {
        /** Whether anyone listens; when not, the leader builds no events. */
        boolean wanted();

        void publish(List<WatchEvent> changes);

        static ChangePublisher of(WatchRegistry watches) {
            return new ChangePublisher() {
                @Override
                public boolean wanted() {
                    return watches.hasWatches();
                }

                @Override
                public void publish(List<WatchEvent> changes) {
                    watches.publish(changes);
                }
            };
        }
    }

    /** Adds one mutation to a batch; RocksDB's put or delete in production, a failing one in tests. */
    @FunctionalInterface
    interface Stager {
        void stage(WriteBatch batch, Mutation mutation) throws RocksDBException;
    }

    /**
     * One commit of a batch as the write group hands it over: what to check and write, and where
     * its answer goes. The answer is read by the commit's writer only after the write group has
     * told it its batch is done.
     */
    interface Entry {
        Commit commit();

        /** The commit was checked: {@code decision} is its answer unless it also {@linkplain #fail fails}. */
        void decide(Commit.Decision decision);

        /** The commit fails with {@code error}, whatever it was decided; the first failure stands. */
        void fail(Throwable error);
    }

    private final Commit.View database;
    private final Stager stager;
    private final BatchWriter writer;
    private final RaceHooks hooks;
    private final ChangePublisher watches;
    private final String description;
    private final WriteBatch writes; // cleared after every batch
    private final CommittedValues committed = new CommittedValues();
    private boolean usable = true;
    private final AtomicLong batchesWritten = new AtomicLong();

    /** @param description the store, for messages */
    BatchCommit(
            Commit.View database,
            Stager stager,
            BatchWriter writer,
            RaceHooks hooks,
            ChangePublisher watches,
            String description) {
        this(database, stager, writer, hooks, watches, description, new WriteBatch());
    }

    /** With the batch to stage into: RocksDB's in production, one whose clear fails in tests. */
    BatchCommit(
            Commit.View database,
            Stager stager,
            BatchWriter writer,
            RaceHooks hooks,
            ChangePublisher watches,
            String description,
            WriteBatch writes) {
        this.database = database;
        this.stager = stager;
        this.writer = writer;
        this.hooks = hooks;
        this.watches = watches;
        this.description = description;
        this.writes = writes;
    }

    /**
     * Checks and stages the batch, writes it, then publishes and settles it, giving every entry its
     * answer. Only a failure before the write fails the batch as not written; nothing after the
     * write may change an answer, so {@link #write}, {@link #publish} and {@link #settle} never
     * throw. Afterwards the batch is emptied for the next one, or, if it cannot be, no longer
     * {@linkplain #usable() usable}.
     *
     * @return how long the batch's write took, in nanoseconds; 0 when nothing was written (every
     *     commit refused, or the staging or the write failed)
     */
    long commit(List<? extends Entry> batch) {
        BatchView view = new BatchView(database, committed);
        List<Mutation> staged = new ArrayList<>();
        long writeNanos = 0;
        try {
            try {
                view.prefetch(batch.stream().map(Entry::commit).toList());
                for (Entry entry : batch) {
                    evaluate(entry, view, staged);
                }
            } catch (RuntimeException | Error e) {
                LOG.warn(
                        "{}: staging a batch of {} commits failed; none of them applied", description, batch.size(), e);
                StoreUnavailableException failure = new StoreUnavailableException(
                        description + ": staging a batch of "
                                + batch.size() + " commits failed (" + e.getMessage()
                                + "); the batch was not written, nothing"
                                + " changed: retry",
                        e);
                batch.forEach(entry -> entry.fail(failure));
                committed.forgetAll(); // whatever failed, nothing it knew is certain any more
                return 0;
            }
            if (!staged.isEmpty()) {
                writeNanos = write(batch);
                if (writeNanos == 0) {
                    view.unknown();
                }
                publish(writeNanos != 0, staged, view.before());
            }
            if (writeNanos != 0 || staged.isEmpty()) {
                settle(view, staged);
            }
            return writeNanos;
        } finally {
            clear();
        }
    }

    /**
     * False once a batch could not be emptied: it still holds that batch's writes, so staging on it
     * would write them again. The write group then refuses every later commit.
     */
    boolean usable() {
        return usable;
    }

    /** Frees the native batch; called once no writer can be leading. Idempotent. */
    void close() {
        writes.close();
    }

    long batchesWritten() {
        return batchesWritten.get();
    }

    /** Remembers what the batch read and wrote; a failure only costs the remembered values, never an answer. */
    private void settle(BatchView view, List<Mutation> staged) {
        try {
            view.settled(staged);
        } catch (RuntimeException | Error e) {
            LOG.error(
                    "{}: remembering the values of a written batch failed; the next commits read them again",
                    description,
                    e);
            committed.forgetAll();
        }
    }

    /**
     * Empties the batch for the next one. One that cannot be emptied must never be written again:
     * it is marked unusable, and the failure is only logged, since every answer of the batch is
     * already settled.
     */
    private void clear() {
        try {
            writes.clear();
        } catch (RuntimeException | Error e) {
            LOG.error("{}: could not clear the write batch; refusing further writes", description, e);
            usable = false;
        }
    }

    /**
     * How long the write took (at least 1), or 0 when it failed. A failed write is an unknown
     * outcome, not a refusal: RocksDB may have appended the batch to the WAL before the failure (a
     * failed sync, say) and would then replay it on the next open. An {@link Error} too (out of
     * memory, say) may come after the batch reached RocksDB.
     */
    private long write(List<? extends Entry> batch) {
        try {
            long start = System.nanoTime();
            writer.write(writes);
            long writeNanos = Math.max(1, System.nanoTime() - start);
            batchesWritten.incrementAndGet();
            return writeNanos;
        } catch (RocksDBException | RuntimeException | Error e) {
            LOG.warn(
                    "{}: writing a batch of {} commits failed; their outcome is unknown", description, batch.size(), e);
            batch.forEach(entry -> entry.fail(new OutcomeUnknownException(
                    description + ": writing the batch holding "
                            + entry.commit().firstKey() + " failed (" + e.getMessage()
                            + "); it may still apply when the"
                            + " store is reopened: re-read the key to learn the outcome",
                    e)));
            return 0;
        }
    }

    /**
     * Tells the watches what the batch changed; never throws (not even an {@link Error}), so a watch
     * can never fail a written batch.
     */
    private void publish(boolean written, List<Mutation> staged, Map<MetaKey, Optional<MetaValue>> before) {
        try {
            if (!watches.wanted()) {
                return;
            }
            watches.publish(written ? WatchRegistry.changesOf(staged) : readBack(staged, before));
        } catch (RuntimeException | Error e) {
            LOG.error(
                    "{}: handing a batch of {} writes to the watches failed; they may miss these changes",
                    description,
                    staged.size(),
                    e);
        }
    }

    /** After a failed write: the staged keys whose value is no longer the one from before the batch. */
    private List<WatchEvent> readBack(List<Mutation> staged, Map<MetaKey, Optional<MetaValue>> before) {
        LinkedHashSet<MetaKey> keys = new LinkedHashSet<>();
        staged.forEach(m -> keys.add(m.key()));
        List<WatchEvent> changes = new ArrayList<>();
        for (MetaKey key : keys) {
            try {
                Optional<MetaValue> now = database.current(key);
                if (!now.equals(before.get(key))) {
                    changes.add(now.map(v -> WatchEvent.changed(key, v)).orElseGet(() -> WatchEvent.deleted(key)));
                }
            } catch (RocksDBException e) {
                LOG.warn(
                        "{}: could not read {} back after a failed batch write; watches miss it if the write"
                                + " took effect",
                        description,
                        key,
                        e);
            }
        }
        return changes;
    }

    private void evaluate(Entry entry, BatchView view, List<Mutation> staged) {
        Commit commit = entry.commit();
        Commit.Decision decision;
        try {
            decision = commit.evaluate(view);
            hooks.reached(RaceHooks.COMMIT_CHECKED);
        } catch (RocksDBException e) {
            entry.fail(new StoreUnavailableException(
                    description + ": could not check " + commit.firstKey() + " (" + e.getMessage()
                            + "); the write did not apply: retry",
                    e));
            return;
        } catch (MetaStoreException | Error e) {
            entry.fail(e);
            return;
        } catch (RuntimeException e) {
            entry.fail(new StoreUnavailableException(
                    description + ": could not check " + commit.firstKey() + " (" + e + "); the write did not apply",
                    e));
            return;
        }
        if (decision.applies()) {
            try {
                stageAllOrNothing(commit.mutations());
            } catch (RocksDBException | RuntimeException e) {
                entry.fail(new StoreUnavailableException(
                        description + ": could not stage the write of "
                                + commit.firstKey() + " (" + e.getMessage() + "); none of its mutations were written:"
                                + " retry",
                        e));
                return;
            }
            for (Mutation mutation : commit.mutations()) {
                staged.add(mutation);
                view.stage(mutation);
            }
        }
        entry.decide(decision);
    }

    /**
     * Stages every mutation of one commit, or, when one fails, none: the batch is rolled back to
     * where the commit began, so the other commits of the batch are written without a part of it.
     * A commit of one mutation needs no save point: RocksDB appends a single put or delete whole
     * or not at all. If even the rollback fails the batch cannot be trusted, and the failure
     * escapes to fail the whole batch unwritten.
     */
    private void stageAllOrNothing(List<Mutation> mutations) throws RocksDBException {
        if (mutations.size() == 1) {
            stager.stage(writes, mutations.get(0));
            return;
        }
        writes.setSavePoint();
        try {
            for (Mutation mutation : mutations) {
                stager.stage(writes, mutation);
            }
        } catch (RocksDBException | RuntimeException | Error e) {
            try {
                writes.rollbackToSavePoint();
            } catch (RocksDBException | RuntimeException rollback) {
                e.addSuppressed(rollback);
                throw new UnstageableBatch(e);
            }
            throw e;
        }
        writes.popSavePoint();
    }

    /** A batch holding part of a commit that could not be taken out again: it must not be written. */
    private static final class UnstageableBatch extends RuntimeException {
        private static final long serialVersionUID = 1L;

        UnstageableBatch(Throwable cause) {
            super("a commit could be neither staged nor rolled back out of the batch", cause);
        }
    }
}
