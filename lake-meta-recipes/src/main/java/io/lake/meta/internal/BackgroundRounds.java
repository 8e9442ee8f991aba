package io.lake.meta.internal;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;

/**
 * The background rounds of one recipe (an election's campaign rounds, a lock's renewals, a
 * sweeper's ticks): tasks at a fixed delay on the scheduler the recipe was given, which is never
 * shut down here, or on one daemon thread of the recipe's own, which {@link #close()} shuts down
 * (the thread starts with the first task). A round that fails is logged and the rounds go on, since
 * anything escaping a periodic task would cancel it for good; only a {@link VirtualMachineError}
 * stops them. Thread-safe.
 *
 * @since 0.1.0
 */
public final class BackgroundRounds implements AutoCloseable {

    private final ScheduledExecutorService scheduler;
    private final boolean owned;
    private final Logger log;
    /** Guarded by this: the periodic rounds scheduled, cancelled by close. */
    private final List<ScheduledFuture<?>> periodic = new ArrayList<>();
    /** Guarded by this. */
    private boolean closed;

    private BackgroundRounds(ScheduledExecutorService scheduler, boolean owned, Logger log) {
        this.scheduler = scheduler;
        this.owned = owned;
        this.log = log;
    }

    /**
     * Rounds on {@code supplied}, or, when it is null, on a daemon thread named {@code threadName}
     * that these rounds own.
     *
     * @param log the owning recipe's logger (where users configure logging)
     */
    public static BackgroundRounds of(@Nullable ScheduledExecutorService supplied, String threadName, Logger log) {
        return supplied != null
                ? on(supplied, log)
                : new BackgroundRounds(
                        Executors.newSingleThreadScheduledExecutor(Threads.daemon(threadName)), true, log);
    }

    /** Rounds on the caller's {@code scheduler}, which is never shut down here. */
    public static BackgroundRounds on(ScheduledExecutorService scheduler, Logger log) {
        return new BackgroundRounds(scheduler, false, log);
    }

    /** The scheduler the rounds run on (for one-off tasks such as a retry, or to share with other recipes). */
    public ScheduledExecutorService scheduler() {
        return scheduler;
    }

    /**
     * Runs {@code round} every {@code interval} (fixed delay), the first after {@code firstDelay}.
     *
     * @param what the round, for the log: "campaign round for 'lease/x' (candidate a)"
     * @param afterFailure what a failed round leaves, for the log: "retrying next round"
     * @return the rounds' future; {@link #close()} cancels it too
     * @throws IllegalStateException if the scheduler refused the rounds (it was shut down)
     */
    public ScheduledFuture<?> every(
            Duration firstDelay, Duration interval, String what, String afterFailure, Runnable round) {
        ScheduledFuture<?> rounds;
        try {
            rounds = scheduler.scheduleWithFixedDelay(
                    () -> runRound(what, afterFailure, round),
                    firstDelay.toNanos(),
                    interval.toNanos(),
                    TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException e) {
            throw new IllegalStateException(what + " cannot run: the scheduler refused it (was it shut down?)", e);
        }
        synchronized (this) {
            if (closed) {
                rounds.cancel(false);
            } else {
                periodic.add(rounds);
            }
        }
        return rounds;
    }

    private void runRound(String what, String afterFailure, Runnable round) {
        try {
            round.run();
        } catch (VirtualMachineError e) {
            log.error("{} failed with {}; the rounds stop", what, e.toString(), e);
            throw e; // the JVM is failing
        } catch (Throwable e) { // an Error or a checked exception too: escaping cancels the periodic task for good
            log.warn("{} failed; {}: {}", what, afterFailure, e.toString(), e);
        }
    }

    /**
     * Cancels the periodic rounds (a round under way finishes) and shuts down the scheduler if
     * these rounds own it. Idempotent.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        periodic.forEach(rounds -> rounds.cancel(false));
        periodic.clear();
        if (owned) {
            scheduler.shutdown();
        }
    }
}
