package io.lake.meta.rocks;

import io.lake.meta.OutcomeUnknownException;
import io.lake.meta.StoreClosedException;
import io.lake.meta.StoreUnavailableException;
import io.lake.meta.spi.RaceHooks;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Group commit, led by the writers themselves as RocksDB's own write group is (its
 * {@code write_thread.cc}): a writer queues its commit and, when no batch is being committed,
 * leads one at once on its own thread (so a writer alone never hands off to another thread);
 * writers arriving meanwhile wait (yielding the CPU for a while, then parked, each on its own; see
 * {@link WaitingWriters}), and
 * when the leader is done it hands the lead to the first of them, who commits everything queued
 * by then as the next batch. The next leader is woken first and each waiting writer is woken
 * directly, without taking the write group's lock: waking them through a lock-and-condition would
 * make each woken writer take the lock in turn before the next could run, a convoy the next
 * batch's fsync would wait behind.
 * Before it takes the queue a leader may wait a moment for the writers it expects back
 * ({@link BatchGathering}), so that concurrent writers share one sync instead of alternating
 * between two.
 *
 * <p>This class decides who leads and which commits a batch holds; the batch's own work (checking
 * its commits, writing them with one write, telling the watches) is {@link BatchCommit}'s, done on
 * the leader's thread, which answers the batch's writers only once that work is over. A
 * {@link BatchCommit} that can no longer be used (its batch could not be emptied) stops the group:
 * every later commit is refused as closed.
 *
 * <p>Lifecycle: the store commits only from calls its {@link CallGate} let in, and calls
 * {@link #stop()} once they have all left, so by then no writer is leading or waiting; a commit
 * after the stop is refused as closed.
 */
final class WriteGroup {

    private static final Logger LOG = LoggerFactory.getLogger(WriteGroup.class);

    /** Most commits in one batch. */
    static final int MAX_BATCH_COMMITS = 512;

    /** Stop adding commits to a batch once their keys and values reach this many bytes. */
    static final long MAX_BATCH_BYTES = 8L << 20;

    private final ReentrantLock mutex = new ReentrantLock();
    private final ArrayDeque<Pending> queue = new ArrayDeque<>(); // guarded by mutex
    private boolean leading; // guarded by mutex: a writer is committing a batch, or was handed the lead
    private boolean started; // guarded by mutex
    private boolean stopped; // guarded by mutex: by stop(), or by a batch that could not be emptied
    private final BatchGathering gathering = new BatchGathering(); // guarded by mutex
    private final Condition arrivals = mutex.newCondition(); // the leader waits here while it gathers
    private int awaitedCommits; // guarded by mutex: what a gathering leader waits for, else 0
    private final boolean yieldWhileWaiting;
    private volatile long yieldNanos; // how long a waiting writer yields before it parks (set under mutex)

    private final BatchCommit batches; // used by the leader only
    private final RaceHooks hooks;
    private final String description;
    private final String name;
    private final AtomicLong commitsAnswered = new AtomicLong();

    /**
     * @param batches does each batch's work; this group owns it and closes it on {@link #stop()}
     * @param description the store, for messages
     * @param name this write group, for logs
     */
    WriteGroup(BatchCommit batches, RaceHooks hooks, WaitingWriters waiting, String description, String name) {
        this.batches = batches;
        this.hooks = hooks;
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
     * @throws StoreClosedException if the write group was stopped; nothing was written
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
     * it if handed the lead), so the write group's state stays whole; the caller gets the hook's
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
        while (!pending.done
                && !pending.promoted
                && !Thread.currentThread().isInterrupted()
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
     * writer's commit) and those behind it into one batch, has {@link BatchCommit} commit it, then
     * hands the lead to the first writer still queued and answers the batch's writers.
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
        long writeNanos = 0;
        try {
            writeNanos = batches.commit(batch);
        } catch (RuntimeException | Error e) {
            LOG.error("{}: committing a batch of {} commits failed unexpectedly", name, batch.size(), e);
            StoreUnavailableException failure = new StoreUnavailableException(
                    description + ": committing a batch" + " failed unexpectedly (" + e + ")", e);
            for (Pending pending : batch) {
                if (pending.decision == null) { // a decided commit keeps its answer: its batch may be written
                    pending.fail(failure);
                }
            }
        } finally {
            commitsAnswered.addAndGet(batch.size()); // before answering, so a caller sees its own commit counted
            handOn(batch, writeNanos);
        }
    }

    /**
     * Called holding the mutex and the lead of a stopped write group (its batch could not be
     * emptied): every queued commit is refused unwritten, as a commit arriving now would be, and
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
     * batch's write waits only for it), then answers the batch's writers. A batch that could not
     * be emptied stops the group before the lead is handed on, so the next leader refuses the
     * queue instead of staging on it.
     */
    private void handOn(List<Pending> batch, long writeNanos) {
        Pending next;
        mutex.lock();
        try {
            if (!batches.usable()) {
                stopped = true;
            }
            gathering.written(appliedCommits(batch), queue.size(), writeNanos);
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

    /**
     * Refuses later commits and frees the batch; called when no writer can be leading or waiting.
     * Idempotent. It frees the batch even when the group already refuses commits (a batch that
     * could not be emptied stops it): a native {@code WriteBatch} has no finalizer, so one not
     * closed here is memory lost for good.
     */
    void stop() {
        mutex.lock();
        try {
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
        batches.close();
    }

    @Override
    public String toString() {
        return name;
    }

    long commitsAnswered() {
        return commitsAnswered.get();
    }

    /**
     * A queued commit and, once its batch is done, its answer. {@code taken} is guarded by the
     * write group's mutex; {@code promoted} is set under it too, and {@code done} by the leader, both
     * volatile so that the parked writer can read them without the mutex. The decision and failure
     * are written by the leader before it sets {@code done}, and read by the writer after it saw
     * {@code done}.
     */
    private static final class Pending implements BatchCommit.Entry {
        final Commit commit;
        final Thread writer;
        boolean taken;
        volatile boolean promoted;
        volatile boolean done;
        Commit.@Nullable Decision decision;

        @Nullable
        Throwable failure;

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

        @Override
        public Commit commit() {
            return commit;
        }

        @Override
        public void decide(Commit.Decision decision) {
            this.decision = decision;
        }

        @Override
        public void fail(Throwable error) {
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
