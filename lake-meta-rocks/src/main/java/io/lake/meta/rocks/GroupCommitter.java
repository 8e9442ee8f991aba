package io.lake.meta.rocks;

import io.lake.meta.MetaKey;
import io.lake.meta.MetaStoreException;
import io.lake.meta.MetaValue;
import io.lake.meta.Mutation;
import io.lake.meta.OutcomeUnknownException;
import io.lake.meta.StoreClosedException;
import io.lake.meta.StoreUnavailableException;
import io.lake.meta.spi.RaceHooks;
import io.lake.meta.spi.WatchRegistry;
import io.lake.meta.watch.WatchEvent;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicLong;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Group commit: one daemon thread drains the queue of pending commits, checks each in arrival
 * order against the database plus the batch's own earlier writes, writes the whole batch as one
 * {@link WriteBatch} with one write (one WAL sync under {@link Durability#SYNCED_WAL}), and only
 * then answers every caller in the batch. Concurrent writers thereby share syncs, and no answer
 * (conflicts included, which may depend on earlier commits of the batch) is given before the
 * batch is durable. If the batch write fails, every commit in it fails with
 * {@link OutcomeUnknownException}: RocksDB may have logged part of it before failing.
 *
 * <p>Watches: once a batch is written, and before any caller in it is answered or a later batch
 * is checked, the committer publishes the writes of its applied commits, in batch order, to the
 * store's {@link WatchRegistry}, which never runs a listener on this thread. After a failed batch
 * write nothing is known, so the committer reads every key the batch would have changed back from
 * the database and publishes those that no longer hold what they held before the batch (the write
 * took effect after all); keys that still hold their old value are not reported. A failed staging
 * wrote nothing and publishes nothing.
 *
 * <p>Lifecycle: the store submits only while it holds the read side of its lifecycle lock and
 * calls {@link #stop()} under the write side, so by then no caller is waiting and no submit can
 * race the stop; anything still queued would be failed as closed rather than left hanging.
 */
final class GroupCommitter {

    private static final Logger LOG = LoggerFactory.getLogger(GroupCommitter.class);

    /** Most commits in one batch. */
    static final int MAX_BATCH_COMMITS = 512;

    /** Stop adding commits to a batch once their keys and values reach this many bytes. */
    static final long MAX_BATCH_BYTES = 8L << 20;

    /** Writes one batch; RocksDB's write in production, a failing one in tests. */
    @FunctionalInterface
    interface BatchWriter {
        void write(WriteBatch batch) throws RocksDBException;
    }

    /** Adds one mutation to a batch; RocksDB's put or delete in production, a failing one in tests. */
    @FunctionalInterface
    interface Stager {
        void stage(WriteBatch batch, Mutation mutation) throws RocksDBException;
    }

    private static final Pending STOP = new Pending(null);

    private final BlockingQueue<Pending> queue = new LinkedBlockingQueue<>();
    private final Commit.View database;
    private final Stager stager;
    private final BatchWriter writer;
    private final RaceHooks hooks;
    private final WatchRegistry watches;
    private final String description;
    private final Thread thread;
    private final AtomicLong batchesWritten = new AtomicLong();
    private final AtomicLong commitsAnswered = new AtomicLong();

    GroupCommitter(Commit.View database, Stager stager, BatchWriter writer, RaceHooks hooks, WatchRegistry watches,
            String description, String threadName) {
        this.database = database;
        this.stager = stager;
        this.writer = writer;
        this.hooks = hooks;
        this.watches = watches;
        this.description = description;
        this.thread = new Thread(this::run, threadName);
        this.thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    /**
     * Queues {@code commit} and blocks until its batch was written (or failed).
     *
     * <p>An interrupt never leaves the outcome open: a commit still in the queue is withdrawn (it
     * will never apply) and the call fails; a commit the committer already took is waited for and
     * its real answer returned, with the thread's interrupt flag set again.
     *
     * @throws StoreUnavailableException if the commit could not be checked or its batch could not
     *     be staged, or the caller was interrupted before the committer took it; it did not apply
     * @throws OutcomeUnknownException if the batch write failed (RocksDB may replay it on reopen)
     */
    Commit.Decision commit(Commit commit) {
        Pending pending = new Pending(commit);
        queue.add(pending);
        hooks.reached(RacePoints.COMMIT_QUEUED);
        try {
            return pending.result.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            if (queue.remove(pending)) {
                throw new StoreUnavailableException(description + ": interrupted before the write of "
                        + commit.firstKey() + " was taken for commit; it was withdrawn and nothing was written", e);
            }
            return awaitTaken(pending);
        } catch (ExecutionException e) {
            throw unwrap(e);
        }
    }

    /** Waits for a commit the committer already took; interrupts are remembered, not obeyed. */
    private Commit.Decision awaitTaken(Pending pending) {
        boolean interrupted = Thread.interrupted();
        try {
            while (true) {
                try {
                    return pending.result.get();
                } catch (InterruptedException again) {
                    interrupted = true;
                } catch (ExecutionException e) {
                    throw unwrap(e);
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private RuntimeException unwrap(ExecutionException e) {
        Throwable cause = e.getCause();
        if (cause instanceof RuntimeException) {
            return (RuntimeException) cause;
        }
        if (cause instanceof Error) {
            throw (Error) cause;
        }
        return new StoreUnavailableException(description + ": the commit failed: " + cause, cause);
    }

    /** Finishes the queued batches, stops the thread and waits for it. */
    void stop() {
        queue.add(STOP);
        boolean interrupted = false;
        while (thread.isAlive()) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        List<Pending> left = new ArrayList<>();
        queue.drainTo(left);
        left.stream().filter(p -> p != STOP)
                .forEach(p -> p.result.completeExceptionally(new StoreClosedException(description)));
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    long batchesWritten() {
        return batchesWritten.get();
    }

    long commitsAnswered() {
        return commitsAnswered.get();
    }

    private void run() {
        List<Pending> batch = new ArrayList<>();
        boolean stopping = false;
        while (!stopping) {
            try {
                batch.add(queue.take());
            } catch (InterruptedException e) {
                continue; // only stop() ends this thread, and it never interrupts it
            }
            long bytes = batch.get(0).bytes();
            while (batch.size() < MAX_BATCH_COMMITS && bytes < MAX_BATCH_BYTES) {
                Pending next = queue.poll();
                if (next == null) {
                    break;
                }
                batch.add(next);
                bytes += next.bytes();
            }
            stopping = batch.remove(STOP);
            if (!batch.isEmpty()) {
                commitBatch(batch);
            }
            batch.clear();
        }
    }

    private void commitBatch(List<Pending> batch) {
        Map<MetaKey, Optional<MetaValue>> overlay = new HashMap<>();
        Map<MetaKey, Optional<MetaValue>> before = new HashMap<>(); // the database's values, to read back against
        List<Mutation> staged = new ArrayList<>();
        Commit.View view = key -> {
            if (overlay.containsKey(key)) {
                return overlay.get(key);
            }
            Optional<MetaValue> current = database.current(key);
            before.putIfAbsent(key, current);
            return current;
        };
        try (WriteBatch writes = new WriteBatch()) {
            for (Pending pending : batch) {
                evaluate(pending, view, overlay, writes, staged);
            }
            if (writes.count() > 0) {
                boolean written = write(writes, batch);
                publish(written, staged, before);
            }
        } catch (RuntimeException | Error e) {
            LOG.warn("{}: staging a batch of {} commits failed; none of them applied", description, batch.size(), e);
            StoreUnavailableException failure = new StoreUnavailableException(description + ": staging a batch of "
                    + batch.size() + " commits failed (" + e.getMessage() + "); the batch was not written, nothing"
                    + " changed: retry", e);
            batch.forEach(p -> p.fail(failure));
        }
        commitsAnswered.addAndGet(batch.size()); // before answering, so a caller sees its own commit counted
        batch.forEach(Pending::answer);
    }

    /**
     * A failed write is an unknown outcome, not a refusal: RocksDB may have appended the batch to
     * the WAL before the failure (a failed sync, say) and would then replay it on the next open.
     * An {@link Error} too (out of memory, say) may come after the batch reached RocksDB.
     */
    private boolean write(WriteBatch writes, List<Pending> batch) {
        try {
            writer.write(writes);
            batchesWritten.incrementAndGet();
            return true;
        } catch (RocksDBException | RuntimeException | Error e) {
            LOG.warn("{}: writing a batch of {} commits failed; their outcome is unknown", description, batch.size(), e);
            batch.forEach(p -> p.fail(new OutcomeUnknownException(description + ": writing the batch holding "
                    + p.commit.firstKey() + " failed (" + e.getMessage() + "); it may still apply when the"
                    + " store is reopened: re-read the key to learn the outcome", e)));
            return false;
        }
    }

    /** Tells the watches what the batch changed; never throws, so a watch can never fail a written batch. */
    private void publish(boolean written, List<Mutation> staged, Map<MetaKey, Optional<MetaValue>> before) {
        if (!watches.hasWatches()) {
            return;
        }
        try {
            watches.publish(written ? WatchRegistry.changesOf(staged) : readBack(staged, before));
        } catch (RuntimeException e) {
            LOG.error("{}: handing a batch of {} writes to the watches failed; they may miss these changes",
                    description, staged.size(), e);
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
                LOG.warn("{}: could not read {} back after a failed batch write; watches miss it if the write"
                        + " took effect", description, key, e);
            }
        }
        return changes;
    }

    private void evaluate(Pending pending, Commit.View view, Map<MetaKey, Optional<MetaValue>> overlay,
            WriteBatch writes, List<Mutation> staged) {
        Commit.Decision decision;
        try {
            decision = pending.commit.evaluate(view);
            hooks.reached(RaceHooks.COMMIT_CHECKED);
        } catch (RocksDBException e) {
            pending.fail(new StoreUnavailableException(description + ": could not check "
                    + pending.commit.firstKey() + " (" + e.getMessage() + "); the write did not apply: retry", e));
            return;
        } catch (MetaStoreException | Error e) {
            pending.fail(e);
            return;
        } catch (RuntimeException e) {
            pending.fail(new StoreUnavailableException(description + ": could not check "
                    + pending.commit.firstKey() + " (" + e + "); the write did not apply", e));
            return;
        }
        if (decision.applies()) {
            try {
                stageAllOrNothing(writes, pending.commit.mutations());
            } catch (RocksDBException | RuntimeException e) {
                pending.fail(new StoreUnavailableException(description + ": could not stage the write of "
                        + pending.commit.firstKey() + " (" + e.getMessage() + "); none of its mutations were written:"
                        + " retry", e));
                return;
            }
            for (Mutation mutation : pending.commit.mutations()) {
                staged.add(mutation);
                overlay.put(mutation.key(), mutation.newValue());
            }
        }
        pending.decision = decision;
    }

    /**
     * Stages every mutation of one commit, or, when one fails, none: the batch is rolled back to
     * where the commit began, so the other commits of the batch are written without a part of it.
     * If even the rollback fails the batch cannot be trusted, and the failure escapes to fail the
     * whole batch unwritten.
     */
    private void stageAllOrNothing(WriteBatch writes, List<Mutation> mutations) throws RocksDBException {
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

    /** A queued commit and, once its batch is done, its answer. Touched by the committer only until answered. */
    private static final class Pending {
        final Commit commit;
        final CompletableFuture<Commit.Decision> result = new CompletableFuture<>();
        Commit.Decision decision;
        Throwable failure;

        Pending(Commit commit) {
            this.commit = commit;
        }

        long bytes() {
            return commit == null ? 0 : commit.bytes();
        }

        void fail(Throwable error) {
            if (failure == null) {
                failure = error;
            }
        }

        void answer() {
            if (failure != null) {
                result.completeExceptionally(failure);
            } else {
                result.complete(decision);
            }
        }
    }
}
