package io.lake.meta.testkit.lock;

import io.lake.meta.testkit.PausePoints;
import io.lake.meta.testkit.lease.ManualTicker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.PriorityQueue;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.Callable;
import java.util.concurrent.Delayed;
import java.util.concurrent.Executors;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A {@link ScheduledExecutorService} on a {@link ManualTicker}: a task runs only when the test
 * calls {@link #runDue()} (or {@link #advance}) and the ticker has reached the task's time, on the
 * test's thread. So background work (a lock's renewals, its acquisition retries) happens exactly
 * when the test says, and a test never sleeps.
 *
 * <p>{@code execute} and {@code submit} queue a task due now. Periodic tasks run at most once per
 * {@code runDue()}, then are due again one period (or delay) after that run. {@code shutdown()}
 * drops every queued task. Thread-safe.
 *
 * @since 0.1.0
 */
public final class ManualScheduler extends AbstractExecutorService implements ScheduledExecutorService {

    private final ManualTicker ticker;
    private final Object lock = new Object();
    private final PriorityQueue<Task<?>> queue = new PriorityQueue<>(ManualScheduler::byDueTime);
    private final AtomicLong sequence = new AtomicLong();
    private boolean shutdown;

    /** Tasks fall due by {@code ticker}'s readings. */
    public ManualScheduler(ManualTicker ticker) {
        this.ticker = Objects.requireNonNull(ticker, "ticker");
    }

    /** Moves the ticker by {@code d}, then runs what fell due. */
    public void advance(Duration d) {
        ticker.advance(d);
        runDue();
    }

    /**
     * Runs, in due order, every task whose time the ticker has reached; tasks they schedule for
     * now run too, periodic ones at most once per call.
     *
     * @return how many tasks ran
     */
    public int runDue() {
        List<Task<?>> ranPeriodic = new ArrayList<>();
        int ran = 0;
        try {
            while (true) {
                Task<?> next;
                synchronized (lock) {
                    next = queue.peek();
                    if (next == null || next.dueNanos - ticker.read() > 0) {
                        break;
                    }
                    queue.poll();
                }
                if (next.isCancelled()) {
                    continue;
                }
                ran++;
                if (next.periodNanos == 0) {
                    next.run();
                } else if (next.runPeriodic()) {
                    next.dueNanos =
                            next.fixedRate ? next.dueNanos + next.periodNanos : ticker.read() + next.periodNanos;
                    ranPeriodic.add(next); // queued again after this call: at most one run per call
                }
            }
        } finally {
            synchronized (lock) {
                for (Task<?> t : ranPeriodic) {
                    if (!shutdown && !t.isCancelled()) {
                        queue.add(t);
                    }
                }
            }
        }
        return ran;
    }

    /** Queued one-shot (not periodic, not cancelled) tasks: retries a caller is waiting for. */
    public int pendingOneShots() {
        synchronized (lock) {
            return pendingOneShotsLocked();
        }
    }

    /**
     * Waits until at least {@code count} one-shot tasks are queued: another thread (an
     * acquisition, say) has finished its round and scheduled the next. The timeout is a safety
     * net: when it expires the task never came and the test fails.
     */
    public void awaitPendingOneShots(int count) {
        long deadline = System.nanoTime() + PausePoints.DEFAULT_SAFETY_TIMEOUT.toNanos();
        synchronized (lock) {
            while (pendingOneShotsLocked() < count) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new AssertionError("fewer than " + count + " one-shot tasks were scheduled within "
                            + PausePoints.DEFAULT_SAFETY_TIMEOUT);
                }
                try {
                    TimeUnit.NANOSECONDS.timedWait(lock, left);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new AssertionError("interrupted while waiting for a scheduled task", e);
                }
            }
        }
    }

    private int pendingOneShotsLocked() {
        return (int) queue.stream()
                .filter(t -> t.periodNanos == 0 && !t.isCancelled())
                .count();
    }

    @Override
    public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
        return enqueue(new Task<Void>(Executors.callable(command, null), due(delay, unit), 0, false));
    }

    @Override
    public <V> ScheduledFuture<V> schedule(Callable<V> callable, long delay, TimeUnit unit) {
        return enqueue(new Task<>(callable, due(delay, unit), 0, false));
    }

    @Override
    public ScheduledFuture<?> scheduleAtFixedRate(Runnable command, long initialDelay, long period, TimeUnit unit) {
        return enqueue(new Task<Void>(
                Executors.callable(command, null), due(initialDelay, unit), positive(period, unit), true));
    }

    @Override
    public ScheduledFuture<?> scheduleWithFixedDelay(Runnable command, long initialDelay, long delay, TimeUnit unit) {
        return enqueue(new Task<Void>(
                Executors.callable(command, null), due(initialDelay, unit), positive(delay, unit), false));
    }

    @Override
    public void execute(Runnable command) {
        var unused = schedule(command, 0, TimeUnit.NANOSECONDS); // execute hands back no future
    }

    @Override
    public void shutdown() {
        synchronized (lock) {
            shutdown = true;
            queue.forEach(t -> t.cancel(false));
            queue.clear();
        }
    }

    @Override
    public List<Runnable> shutdownNow() {
        shutdown();
        return List.of();
    }

    @Override
    public boolean isShutdown() {
        synchronized (lock) {
            return shutdown;
        }
    }

    @Override
    public boolean isTerminated() {
        return isShutdown();
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) {
        return isShutdown();
    }

    private <V> Task<V> enqueue(Task<V> task) {
        synchronized (lock) {
            if (shutdown) {
                throw new RejectedExecutionException("the manual scheduler was shut down");
            }
            queue.add(task);
            lock.notifyAll();
        }
        return task;
    }

    private long due(long delay, TimeUnit unit) {
        return ticker.read() + Math.max(0, unit.toNanos(delay));
    }

    private static long positive(long period, TimeUnit unit) {
        long nanos = unit.toNanos(period);
        if (nanos <= 0) {
            throw new IllegalArgumentException("period must be positive, got " + period + " " + unit);
        }
        return nanos;
    }

    /** Ticker readings may wrap: order by difference, then by submission. */
    private static int byDueTime(Task<?> a, Task<?> b) {
        int byTime = Long.signum(a.dueNanos - b.dueNanos);
        return byTime != 0 ? byTime : Long.compare(a.sequence, b.sequence);
    }

    private final class Task<V> extends FutureTask<V> implements ScheduledFuture<V> {
        private final long sequence = ManualScheduler.this.sequence.incrementAndGet();
        private final long periodNanos;
        private final boolean fixedRate;
        /** Guarded by the scheduler's lock while queued. */
        private long dueNanos;

        Task(Callable<V> callable, long dueNanos, long periodNanos, boolean fixedRate) {
            super(callable);
            this.dueNanos = dueNanos;
            this.periodNanos = periodNanos;
            this.fixedRate = fixedRate;
        }

        boolean runPeriodic() {
            return runAndReset();
        }

        @Override
        public long getDelay(TimeUnit unit) {
            synchronized (lock) {
                return unit.convert(dueNanos - ticker.read(), TimeUnit.NANOSECONDS);
            }
        }

        @Override
        public int compareTo(Delayed other) {
            return Long.compare(getDelay(TimeUnit.NANOSECONDS), other.getDelay(TimeUnit.NANOSECONDS));
        }

        @Override
        public boolean cancel(boolean mayInterruptIfRunning) {
            boolean cancelled = super.cancel(mayInterruptIfRunning);
            synchronized (lock) {
                queue.remove(this);
                lock.notifyAll();
            }
            return cancelled;
        }
    }
}
