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
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Group commit, led by the writers themselves as RocksDB's own write group is: a writer queues its
 * commit and, when no batch is being committed, leads one at once on its own thread (so a writer
 * alone never hands off to another thread); writers arriving meanwhile wait (yielding the CPU for a
 * while, then parked, each on its own; see {@link WaitingWriters}), and
 * when the leader is done it hands the lead to the first of them, who commits everything queued
 * by then as the next batch. The next leader is woken first and each waiting writer is woken
 * directly, without taking the committer's lock: waking them through a lock-and-condition would
 * make each woken writer take the lock in turn before the next could run, a convoy the next
 * batch's fsync would wait behind.
 * Before it takes the queue a leader may wait a moment for the writers it expects back
 * ({@link BatchGathering}), so that concurrent writers share one sync instead of alternating
 * between two. The leader checks each commit in arrival order against the database
 * plus the batch's own earlier writes, writes the whole batch as one {@link WriteBatch} with one
 * write (one WAL sync under {@link Durability#SYNCED_WAL}), and only then answers every caller in
 * the batch. Concurrent writers thereby share syncs, and no answer (conflicts included, which may
 * depend on earlier commits of the batch) is given before the batch is durable. If the batch write
 * fails, every commit in it fails with {@link OutcomeUnknownException}: RocksDB may have logged
 * part of it before failing.
 *
 * <p>Watches: once a batch is written, and before any caller in it is answered or the lead is
 * handed on, the leader publishes the writes of its applied commits, in batch order, to the
 * store's {@link WatchRegistry}, which never runs a listener on this thread. After a failed batch
 * write nothing is known, so the leader reads every key the batch would have changed back from
 * the database and publishes those that no longer hold what they held before the batch (the write
 * took effect after all); keys that still hold their old value are not reported. A failed staging
 * wrote nothing and publishes nothing. Nothing after a successful write (publishing, remembering
 * the written values) can change an answer: a failure there, an {@link Error} included, is logged
 * and costs at most the watches' events of that batch or the remembered values.
 *
 * <p>Lifecycle: the store commits only from calls its {@link CallGate} let in, and calls
 * {@link #stop()} once they have all left, so by then no writer is leading or waiting; a commit
 * after the stop is refused as closed.
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

    private final ReentrantLock mutex = new ReentrantLock();
    private final ArrayDeque<Pending> queue = new ArrayDeque<>(); // guarded by mutex
    private boolean leading; // guarded by mutex: a writer is committing a batch, or was handed the lead
    private boolean started; // guarded by mutex
    private boolean stopped; // guarded by mutex
    private final BatchGathering gathering = new BatchGathering(); // guarded by mutex
    private final Condition arrivals = mutex.newCondition(); // the leader waits here while it gathers
    private int awaitedCommits; // guarded by mutex: what a gathering leader waits for, else 0
    private final boolean yieldWhileWaiting;
    private volatile long yieldNanos; // how long a waiting writer yields before it parks (set under mutex)

    private final Commit.View database;
    private final Stager stager;
    private final BatchWriter writer;
    private final RaceHooks hooks;
    private final ChangePublisher watches;
    private final String description;
    private final String name;
    private final WriteBatch writes; // the leader's, cleared after every batch
    private final CommittedValues committed = new CommittedValues(); // the leader's
    private long batchWriteNanos; // the leader's: how long its batch's write took, 0 when it wrote nothing
    private final AtomicLong batchesWritten = new AtomicLong();
    private final AtomicLong commitsAnswered = new AtomicLong();

    /**
     * @param description the store, for messages
     * @param name this committer, for logs
     */
    GroupCommitter(Commit.View database, Stager stager, BatchWriter writer, RaceHooks hooks, WatchRegistry watches,
            WaitingWriters waiting, String description, String name) {
        this(database, stager, writer, hooks, ChangePublisher.of(watches), waiting, description, name);
    }

    GroupCommitter(Commit.View database, Stager stager, BatchWriter writer, RaceHooks hooks, ChangePublisher watches,
            WaitingWriters waiting, String description, String name) {
        this(database, stager, writer, hooks, watches, waiting, description, name, new WriteBatch());
    }

    /** With the batch the leaders stage into: RocksDB's in production, one whose clear fails in tests. */
    GroupCommitter(Commit.View database, Stager stager, BatchWriter writer, RaceHooks hooks, ChangePublisher watches,
            WaitingWriters waiting, String description, String name, WriteBatch writes) {
        this.writes = writes;
        this.database = database;
        this.stager = stager;
        this.writer = writer;
        this.hooks = hooks;
        this.watches = watches;
        this.yieldWhileWaiting = waiting == WaitingWriters.YIELD_THEN_PARK;
        this.description = description;
        this.name = name;
    }

    /** Accepts commits from now on (until {@link #stop()}); commits before it are a bug, refused. */
    void start() {
        mutex.lock();
        try {
            if (started) {
                throw new IllegalStateException(name + " was already started");
            }
            started = true;
        } finally {
            mutex.unlock();
        }
    }

    /**
     * Queues {@code commit} and blocks until its batch was written (or failed), leading the batch
     * on this thread when no other writer leads one.
     *
     * <p>An interrupt never leaves the outcome open: a commit still in the queue is withdrawn (it
     * will never apply) and the call fails; a commit already taken into a batch, or whose writer
     * was handed the lead, is waited for (or led) and its real answer returned, with the thread's
     * interrupt flag set again.
     *
     * @throws StoreUnavailableException if the commit could not be checked or its batch could not
     *     be staged, or the caller was interrupted before its commit was taken; it did not apply
     * @throws OutcomeUnknownException if the batch write failed (RocksDB may replay it on reopen)
     * @throws StoreClosedException if the committer was stopped; nothing was written
     */
    Commit.Decision commit(Commit commit) {
        Pending pending = new Pending(commit, Thread.currentThread());
        boolean lead;
        mutex.lock();
        try {
            if (stopped) {
                throw new StoreClosedException(description);
            }
            if (!started) {
                throw new IllegalStateException(name + " was not started");
            }
            queue.add(pending);
            lead = !leading;
            leading = true;
            if (awaitedCommits > 0 && queue.size() >= awaitedCommits) {
                arrivals.signal();
            }
        } finally {
            mutex.unlock();
        }
        try {
            hooks.reached(RacePoints.COMMIT_QUEUED);
        } catch (RuntimeException | Error e) {
            hookFailed(pending, lead);
            throw e;
        }
        if (lead || awaitTurn(pending)) {
            lead();
        }
        return pending.answer();
    }

    /**
     * A race hook threw at {@link RacePoints#COMMIT_QUEUED}: only this commit fails. Still queued,
     * it is withdrawn (nothing written), and a lead this writer holds is handed on, so the writers
     * behind it are not left waiting. Already taken by a leader, its batch is waited for (leading
     * it if handed the lead), so the committer's state stays whole; the caller gets the hook's
     * exception either way.
     */
    private void hookFailed(Pending pending, boolean lead) {
        Pending next = null;
        boolean withdrawn;
        mutex.lock();
        try {
            withdrawn = !pending.taken && queue.remove(pending);
            if (withdrawn && (lead || pending.promoted)) {
                next = queue.peek();
                if (next == null) {
                    leading = false;
                } else {
                    next.promoted = true;
                }
            }
        } finally {
            mutex.unlock();
        }
        if (next != null) {
            next.wake();
        }
        if (!withdrawn && (lead || awaitTurn(pending))) {
            lead();
        }
    }

    /**
     * Waits until the commit was answered (false) or its writer was handed the lead (true).
     * Interrupts withdraw a commit still queued; afterwards they are remembered, not obeyed.
     */
    private boolean awaitTurn(Pending pending) {
        yieldWhileItsBatchRuns(pending);
        boolean interrupted = false;
        try {
            while (!pending.done && !pending.promoted) {
                LockSupport.park(this);
                if (Thread.interrupted()) {
                    if (withdraw(pending)) {
                        Thread.currentThread().interrupt();
                        throw new StoreUnavailableException(description + ": interrupted before the write of "
                                + pending.commit.firstKey() + " was taken for commit; it was withdrawn and nothing"
                                + " was written");
                    }
                    interrupted = true;
                }
            }
            return pending.promoted;
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Before parking, a waiting writer yields the CPU in a loop for about as long as a batch takes
     * ({@link BatchGathering#yieldNanos()}; not at all with {@link WaitingWriters#PARK}), as
     * RocksDB's own write thread does: a writer that is
     * still runnable when its batch is answered goes on at once, where waking a parked one costs
     * a system call and a scheduler wake-up, and a batch's writers were woken one after another,
     * the next batch waiting for the last. Yielding gives the CPU to any other runnable thread.
     */
    @SuppressWarnings("ThreadPriorityCheck") // yielding is the point: the batch's writer is about to finish
    private void yieldWhileItsBatchRuns(Pending pending) {
        long yieldFor = yieldNanos;
        if (yieldFor == 0) {
            return;
        }
        long deadline = System.nanoTime() + yieldFor;
        while (!pending.done && !pending.promoted && !Thread.currentThread().isInterrupted()
                && System.nanoTime() - deadline < 0) {
            Thread.yield();
        }
    }

    /** Takes a commit no leader has taken or been handed out of the queue; false when too late. */
    private boolean withdraw(Pending pending) {
        mutex.lock();
        try {
            return !pending.taken && !pending.promoted && queue.remove(pending);
        } finally {
            mutex.unlock();
        }
    }

    /**
     * Waits for the commits it expects ({@link #gather()}), takes the head of the queue (this
     * writer's commit) and those behind it into one batch, commits it, answers its writers and
     * hands the lead to the first writer still queued.
     */
    private void lead() {
        List<Pending> batch = new ArrayList<>();
        mutex.lock();
        try {
            if (stopped) {
                refuseQueued(); // a batch that could not be cleared: staging on it would write it again
                return;
            }
            gather();
            long bytes = 0;
            while (!queue.isEmpty() && batch.size() < MAX_BATCH_COMMITS && bytes < MAX_BATCH_BYTES) {
                Pending next = queue.poll();
                next.taken = true;
                bytes += next.commit.bytes();
                batch.add(next);
            }
        } finally {
            mutex.unlock();
        }
        try {
            commitBatch(batch);
        } catch (RuntimeException | Error e) {
            LOG.error("{}: committing a batch of {} commits failed unexpectedly", name, batch.size(), e);
            StoreUnavailableException failure = new StoreUnavailableException(description + ": committing a batch"
                    + " failed unexpectedly (" + e + ")", e);
            for (Pending pending : batch) {
                if (pending.decision == null) { // a decided commit keeps its answer: its batch may be written
                    pending.fail(failure);
                }
            }
        } finally {
            commitsAnswered.addAndGet(batch.size()); // before answering, so a caller sees its own commit counted
            handOn(batch);
        }
    }

    /**
     * Called holding the mutex and the lead of a stopped committer (its batch could not be
     * cleared): every queued commit is refused unwritten, as a commit arriving now would be, and
     * the lead ends with nobody to hand it to.
     */
    private void refuseQueued() {
        Pending pending;
        while ((pending = queue.poll()) != null) {
            pending.taken = true;
            pending.fail(new StoreClosedException(description));
            pending.done = true;
            pending.wake();
        }
        leading = false;
    }

    /**
     * Called holding the mutex and the lead, before the batch is taken: waits until the commits
     * {@link BatchGathering} expects are queued, or its wait is up. An interrupt ends the wait
     * and is remembered, not obeyed (the leader's own commit is about to be written).
     */
    private void gather() {
        int expected = gathering.expectedCommits(MAX_BATCH_COMMITS);
        long left = gathering.waitNanos();
        if (queue.size() >= expected || left == 0) {
            return;
        }
        awaitedCommits = expected;
        try {
            while (queue.size() < expected && left > 0) {
                left = arrivals.awaitNanos(left);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            awaitedCommits = 0;
        }
    }

    /**
     * Hands the lead to the first writer still queued, wakes it before anyone else (the next
     * batch's write waits only for it), then answers the batch's writers.
     */
    private void handOn(List<Pending> batch) {
        Pending next;
        mutex.lock();
        try {
            gathering.written(appliedCommits(batch), queue.size(), batchWriteNanos);
            yieldNanos = yieldWhileWaiting ? gathering.yieldNanos() : 0;
            next = queue.peek();
            if (next == null) {
                leading = false;
            } else {
                next.promoted = true;
            }
        } finally {
            mutex.unlock();
        }
        if (next != null) {
            next.wake();
        }
        for (Pending pending : batch) {
            pending.done = true;
            pending.wake();
        }
    }

    private static int appliedCommits(List<Pending> batch) {
        int applied = 0;
        for (Pending pending : batch) {
            if (pending.failure == null && pending.decision != null && pending.decision.applies()) {
                applied++;
            }
        }
        return applied;
    }

    /** Refuses later commits and frees the batch; called when no writer can be leading or waiting. Idempotent. */
    void stop() {
        mutex.lock();
        try {
            if (stopped) {
                return;
            }
            stopped = true;
            queue.forEach(p -> {
                p.fail(new StoreClosedException(description));
                p.done = true;
                p.wake();
            });
            queue.clear();
        } finally {
            mutex.unlock();
        }
        writes.close();
    }

    @Override
    public String toString() {
        return name;
    }

    long batchesWritten() {
        return batchesWritten.get();
    }

    long commitsAnswered() {
        return commitsAnswered.get();
    }

    /**
     * Checks and stages the batch, writes it, then publishes and settles it. Only a failure before
     * the write fails the batch as not written; nothing after the write may change an answer, so
     * {@link #write}, {@link #publish} and {@link #settle} never throw.
     */
    private void commitBatch(List<Pending> batch) {
        BatchView view = new BatchView(database, committed);
        List<Mutation> staged = new ArrayList<>();
        batchWriteNanos = 0;
        try {
            try {
                view.prefetch(batch.stream().map(p -> p.commit).toList());
                for (Pending pending : batch) {
                    evaluate(pending, view, writes, staged);
                }
            } catch (RuntimeException | Error e) {
                LOG.warn("{}: staging a batch of {} commits failed; none of them applied", description, batch.size(), e);
                StoreUnavailableException failure = new StoreUnavailableException(description + ": staging a batch of "
                        + batch.size() + " commits failed (" + e.getMessage() + "); the batch was not written, nothing"
                        + " changed: retry", e);
                batch.forEach(p -> p.fail(failure));
                committed.forgetAll(); // whatever failed, nothing it knew is certain any more
                return;
            }
            boolean written = false;
            if (!staged.isEmpty()) {
                written = write(writes, batch);
                if (!written) {
                    view.unknown();
                }
                publish(written, staged, view.before());
            }
            if (written || staged.isEmpty()) {
                settle(view, staged);
            }
        } finally {
            clear();
        }
    }

    /** Remembers what the batch read and wrote; a failure only costs the remembered values, never an answer. */
    private void settle(BatchView view, List<Mutation> staged) {
        try {
            view.settled(staged);
        } catch (RuntimeException | Error e) {
            LOG.error("{}: remembering the values of a written batch failed; the next commits read them again",
                    description, e);
            committed.forgetAll();
        }
    }

    /** Empties the batch for the next leader; a batch that cannot be emptied must never be written again. */
    private void clear() {
        try {
            writes.clear();
        } catch (RuntimeException | Error e) {
            LOG.error("{}: could not clear the write batch; refusing further writes", name, e);
            mutex.lock();
            try {
                stopped = true;
            } finally {
                mutex.unlock();
            }
            throw e;
        }
    }

    /**
     * A failed write is an unknown outcome, not a refusal: RocksDB may have appended the batch to
     * the WAL before the failure (a failed sync, say) and would then replay it on the next open.
     * An {@link Error} too (out of memory, say) may come after the batch reached RocksDB.
     */
    private boolean write(WriteBatch writes, List<Pending> batch) {
        try {
            long start = System.nanoTime();
            writer.write(writes);
            batchWriteNanos = Math.max(1, System.nanoTime() - start);
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

    private void evaluate(Pending pending, BatchView view, WriteBatch writes, List<Mutation> staged) {
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
                view.stage(mutation);
            }
        }
        pending.decision = decision;
    }

    /**
     * Stages every mutation of one commit, or, when one fails, none: the batch is rolled back to
     * where the commit began, so the other commits of the batch are written without a part of it.
     * A commit of one mutation needs no save point: RocksDB appends a single put or delete whole
     * or not at all. If even the rollback fails the batch cannot be trusted, and the failure
     * escapes to fail the whole batch unwritten.
     */
    private void stageAllOrNothing(WriteBatch writes, List<Mutation> mutations) throws RocksDBException {
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

    /**
     * A queued commit and, once its batch is done, its answer. {@code taken} is guarded by the
     * committer's mutex; {@code promoted} is set under it too, and {@code done} by the leader, both
     * volatile so that the parked writer can read them without the mutex. The decision and failure
     * are written by the leader before it sets {@code done}, and read by the writer after it saw
     * {@code done}.
     */
    private static final class Pending {
        final Commit commit;
        final Thread writer;
        boolean taken;
        volatile boolean promoted;
        volatile boolean done;
        Commit.@Nullable Decision decision;
        @Nullable Throwable failure;

        Pending(Commit commit, Thread writer) {
            this.commit = commit;
            this.writer = writer;
        }

        /** Unparks the waiting writer (not the current thread, which is not waiting: the leader's own commit). */
        void wake() {
            if (writer != Thread.currentThread()) {
                LockSupport.unpark(writer);
            }
        }

        void fail(Throwable error) {
            if (failure == null) {
                failure = error;
            }
        }

        Commit.Decision answer() {
            if (failure instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (failure instanceof Error error) {
                throw error;
            }
            if (failure != null) {
                throw new IllegalStateException(failure);
            }
            return Objects.requireNonNull(decision); // a done commit holds a decision or a failure
        }
    }
}
