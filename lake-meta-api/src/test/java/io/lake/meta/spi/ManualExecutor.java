package io.lake.meta.spi;

import java.util.ArrayDeque;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/** An executor that runs nothing until the test says so, on the test's own thread. */
final class ManualExecutor extends AbstractExecutorService {

    private final Queue<Runnable> tasks = new ArrayDeque<>();
    private boolean shutdown;
    private Error failNext;

    @Override
    public synchronized void execute(Runnable task) {
        if (shutdown) {
            throw new RejectedExecutionException("shut down");
        }
        if (failNext != null) {
            Error failure = failNext;
            failNext = null;
            throw failure;
        }
        tasks.add(task);
    }

    /** The next {@link #execute} throws {@code failure} (a pool that could not start a thread, say). */
    synchronized void failNextExecute(Error failure) {
        failNext = failure;
    }

    /** Runs the queued tasks, and the tasks they queue, until none is left. */
    void runAll() {
        while (true) {
            Runnable next;
            synchronized (this) {
                next = tasks.poll();
            }
            if (next == null) {
                return;
            }
            next.run();
        }
    }

    synchronized int queued() {
        return tasks.size();
    }

    @Override
    public synchronized void shutdown() {
        shutdown = true;
    }

    @Override
    public synchronized List<Runnable> shutdownNow() {
        shutdown = true;
        return List.copyOf(tasks);
    }

    @Override
    public synchronized boolean isShutdown() {
        return shutdown;
    }

    @Override
    public synchronized boolean isTerminated() {
        return shutdown && tasks.isEmpty();
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) {
        return isTerminated();
    }
}
