package io.lake.meta.internal;

import java.util.ArrayDeque;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;

/**
 * Delivers one recipe's listener events one at a time, in the order they happened, on an
 * executor, and never while the recipe holds one of its locks. The recipe {@link #post posts} an
 * event while it holds its lock (so the queue's order is the order of the transitions) and
 * {@link #flush flushes} after releasing it (which hands the queue to the executor). With a
 * direct executor ({@code Runnable::run}) the flushing thread delivers, still outside the lock;
 * if another thread is already delivering, it delivers this event too, in order.
 *
 * <p>A listener that throws a {@link RuntimeException} is logged and skipped. Thread-safe.
 */
public final class ListenerQueue {

    /** How long the default delivery thread idles before it ends (a new one starts on the next event). */
    private static final long IDLE_SECONDS = 10;

    private final Executor executor;
    private final Logger log;
    private final Object lock = new Object();
    /** Guarded by lock. */
    private final ArrayDeque<Runnable> pending = new ArrayDeque<>();
    /** Guarded by lock: a drain is scheduled or running. */
    private boolean draining;

    /**
     * @param executor where events are delivered
     * @param log the owning recipe's logger (where users configure logging)
     */
    public ListenerQueue(Executor executor, Logger log) {
        this.executor = executor;
        this.log = log;
    }

    /**
     * The default delivery executor of one recipe: at most one daemon thread named {@code name},
     * started on the first event and ended after {@value #IDLE_SECONDS} idle seconds, so a recipe
     * without a lifecycle (a lease candidate) leaks no thread.
     */
    public static Executor oneThread(String name) {
        ThreadPoolExecutor pool = new ThreadPoolExecutor(1, 1, IDLE_SECONDS, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
                r -> {
                    Thread t = new Thread(r, name);
                    t.setDaemon(true);
                    return t;
                });
        pool.allowCoreThreadTimeOut(true);
        return pool;
    }

    /** Queues {@code event}; call it where the transition happened (under the recipe's lock), then {@link #flush()}. */
    public void post(Runnable event) {
        synchronized (lock) {
            pending.add(event);
        }
    }

    /** Hands queued events to the executor unless a delivery is already under way. Call it holding none of the recipe's locks. */
    public void flush() {
        synchronized (lock) {
            if (draining || pending.isEmpty()) {
                return;
            }
            draining = true;
        }
        try {
            executor.execute(this::drain);
        } catch (RejectedExecutionException e) {
            int dropped;
            synchronized (lock) {
                dropped = pending.size();
                pending.clear();
                draining = false;
            }
            log.warn("listener executor refused delivery (was it shut down?): {} event(s) dropped: {}", dropped,
                    e.toString());
        }
    }

    private void drain() {
        boolean done = false;
        try {
            while (true) {
                Runnable next;
                synchronized (lock) {
                    next = pending.poll();
                    if (next == null) {
                        draining = false;
                        done = true;
                        return;
                    }
                }
                try {
                    next.run();
                } catch (RuntimeException e) {
                    log.warn("a listener failed: {}", e.toString());
                }
            }
        } finally {
            if (!done) { // an Error escaped a listener: let the next flush deliver what is left
                synchronized (lock) {
                    draining = false;
                }
            }
        }
    }
}
