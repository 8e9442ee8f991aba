package io.lake.meta.lease;

import io.lake.meta.internal.Checks;
import io.lake.meta.internal.Threads;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a {@link LeaderTask} only while an election leads, like Curator's {@code LeaderSelector}:
 * on "gained" the task starts on the runner's own thread with that term's guard; on "lost" (or
 * {@link #close()}) its thread is interrupted; when the task returns while the term lasts, the
 * runner resigns the election, so another candidate may lead (a started election campaigns again
 * at its next round, and the task runs again when it wins).
 *
 * <pre>{@code
 * LeaderTaskRunner runner = LeaderTaskRunner.over(election, guard -> {
 *     MetaStore fenced = FencedMetaStore.over(store, election).pinnedTo(guard.epoch());
 *     while (!Thread.currentThread().isInterrupted()) {
 *         doOneStepOfLeaderWork(fenced);       // refused (FencedException) once the term ended
 *     }
 * });
 * election.start();
 * ...
 * runner.close();                              // interrupts a running task; the election stays yours
 * }</pre>
 *
 * <p>The interrupt is a courtesy, not the fence: it arrives when "lost" is announced (the next
 * round, or a rejected fenced write), possibly after the guard's deadline. Writes through a store
 * pinned to the term are refused from the deadline on. Thread-safe.
 *
 * @since 0.1.0
 */
public final class LeaderTaskRunner implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(LeaderTaskRunner.class);

    private final LeaderElection election;
    private final LeaderTask task;
    private final ExecutorService thread;
    /** Guarded by this. */
    private @Nullable Future<?> running;
    /** Guarded by this. */
    private long runningEpoch;
    /** Guarded by this. */
    private boolean closed;

    private LeaderTaskRunner(LeaderElection election, LeaderTask task) {
        this.election = election;
        this.task = task;
        this.thread =
                Executors.newSingleThreadExecutor(Threads.daemon("lake-meta-leader-task-" + election.candidateId()));
    }

    /**
     * Runs {@code task} whenever {@code election} leads, from its next "gained" on. Add the runner
     * before starting the election to see its first term.
     *
     * @throws io.lake.meta.InvalidArgumentException if an argument is null
     */
    public static LeaderTaskRunner over(LeaderElection election, LeaderTask task) {
        Checks.notNull(election, "election");
        Checks.notNull(task, "task");
        LeaderTaskRunner runner = new LeaderTaskRunner(election, task);
        election.addListener(new LeadershipListener() {
            @Override
            public void gained(LeaseGuard guard) {
                runner.termStarted(guard);
            }

            @Override
            public void lost(long epoch, String reason) {
                runner.termEnded(epoch);
            }
        });
        return runner;
    }

    /** Whether the task is running now (for a term that has not been announced lost). */
    public synchronized boolean isRunning() {
        return running != null && !running.isDone();
    }

    private synchronized void termStarted(LeaseGuard guard) {
        if (closed) {
            return;
        }
        runningEpoch = guard.epoch();
        try {
            running = thread.submit(() -> lead(guard));
        } catch (RejectedExecutionException e) {
            LOG.warn("leader task of {} not started: the runner is closed", election.candidateId());
        }
    }

    private synchronized void termEnded(long epoch) {
        if (running != null && runningEpoch == epoch) {
            running.cancel(true); // interrupts the task's thread
        }
    }

    private void lead(LeaseGuard guard) {
        try {
            task.lead(guard);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception | Error e) {
            LOG.warn("leader task of {} failed in epoch {}; resigning", election.candidateId(), guard.epoch(), e);
            if (e instanceof Error error) {
                resignIfStillLeading(guard);
                throw error;
            }
        }
        resignIfStillLeading(guard);
    }

    /** The task is done with this term: let another candidate lead, unless the term already ended. */
    private void resignIfStillLeading(LeaseGuard guard) {
        if (Thread.currentThread().isInterrupted()) {
            return;
        }
        try {
            // checked and resigned in one step: the node may have moved on to a later term meanwhile
            election.resignTerm(guard.epoch());
        } catch (RuntimeException e) {
            LOG.warn(
                    "leader task of {} returned in epoch {} but could not resign; the lease expires on its own: {}",
                    election.candidateId(),
                    guard.epoch(),
                    e.toString());
        }
    }

    /**
     * Interrupts a running task and stops running it in later terms. The election stays open and
     * keeps its lease (close or resign it yourself). Idempotent.
     */
    @Override
    public void close() {
        synchronized (this) {
            closed = true;
            if (running != null) {
                running.cancel(true);
            }
        }
        thread.shutdownNow();
    }

    @Override
    public String toString() {
        return "LeaderTaskRunner[" + election.candidateId() + ", running=" + isRunning() + "]";
    }
}
