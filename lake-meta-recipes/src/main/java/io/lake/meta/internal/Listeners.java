package io.lake.meta.internal;

import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;

/**
 * The listeners of one recipe, and the delivery of its events to them: one event at a time, in
 * the order they happened, on an executor, and never while the recipe holds one of its locks. The
 * recipe {@link #post posts} an event while it holds its lock (so the queue's order is the order
 * of the transitions) and {@link #flush flushes} after releasing it (which hands the queue to the
 * executor). So a listener may call back into its recipe, and a slow one delays only later events,
 * never the recipe. With a direct executor ({@code Runnable::run}) the flushing thread delivers,
 * still outside the lock; if another thread is already delivering, it delivers this event too, in
 * order.
 *
 * <p>A listener that throws (an exception, or an error short of a {@link VirtualMachineError}) is
 * logged and skipped: the other listeners still hear the event. Thread-safe.
 *
 * @param <L> the listener type
 * @since 0.1.0
 */
public final class Listeners<L> {

    /** How long the default delivery thread idles before it ends (a new one starts on the next event). */
    private static final long IDLE_SECONDS = 10;

    private final String kind;
    private final Executor executor;
    private final Logger log;
    private final List<L> listeners = new CopyOnWriteArrayList<>();
    private final Object lock = new Object();
    /** Guarded by lock. */
    private final ArrayDeque<Runnable> pending = new ArrayDeque<>();
    /** Guarded by lock: a drain is scheduled or running. */
    private boolean draining;

    private final Drain drainTask = new Drain();
    /** The fatal error a listener last threw out of a drain; what an executor running it inline passes on. */
    private volatile @Nullable Throwable escapedFromListener;

    /**
     * @param kind what the listeners are, for the log ("leadership listener")
     * @param executor where events are delivered
     * @param log the owning recipe's logger (where users configure logging)
     */
    public Listeners(String kind, Executor executor, Logger log) {
        this.kind = kind;
        this.executor = executor;
        this.log = log;
    }

    /**
     * The default delivery executor of one recipe: at most one daemon thread named {@code name},
     * started on the first event and ended after {@value #IDLE_SECONDS} idle seconds, so a recipe
     * without a lifecycle (a lease candidate) leaks no thread.
     */
    public static Executor oneThread(String name) {
        ThreadPoolExecutor pool = new ThreadPoolExecutor(
                1, 1, IDLE_SECONDS, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), Threads.daemon(name));
        pool.allowCoreThreadTimeOut(true);
        return pool;
    }

    /**
     * Adds a listener; it hears the events posted from now on.
     *
     * @throws io.lake.meta.InvalidArgumentException if {@code listener} is null
     */
    public void add(L listener) {
        listeners.add(Checks.notNull(listener, "listener"));
    }

    /**
     * Queues {@code event} for the listeners registered now; call it where the transition happened
     * (under the recipe's lock), then {@link #flush()}.
     *
     * @param name the event's name, for the log ("lost")
     */
    public void post(String name, Consumer<? super L> event) {
        List<L> now = List.copyOf(listeners);
        Runnable delivery = () -> {
            for (L listener : now) {
                try {
                    event.accept(listener);
                } catch (RuntimeException | Error e) {
                    if (e instanceof VirtualMachineError fatal) {
                        throw fatal; // the JVM is failing; anything else is that listener's failure
                    }
                    log.warn("{} {} failed on {}: {}", kind, listener, name, e.toString());
                }
            }
        };
        synchronized (lock) {
            pending.add(delivery);
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
            executor.execute(drainTask);
        } catch (RuntimeException | Error e) {
            handOverFailed(e);
        }
    }

    /**
     * For an executor that holds a delivery task back and hands it on later (the lock's, while its
     * mutex is held): when that later hand-over fails, it reports the failure here, as if the
     * executor had refused the task at once, so the listeners are not left waiting for a delivery
     * that never starts.
     *
     * @param task a task this executor was given by {@link #flush()}
     */
    public static void handOverFailed(Runnable task, Throwable failure) {
        if (task instanceof Listeners<?>.Drain drain) {
            drain.owner().handOverFailed(failure);
        }
    }

    /**
     * The executor did not take the drain: a refusal (shut down, saturated) drops the queued
     * events, as it would drop any task; any other failure (a pool that cannot start a thread
     * throws {@code OutOfMemoryError}) keeps them for the next flush. Either way the recipe that
     * flushed is not failed, and the next flush hands a drain to the executor again.
     */
    private void handOverFailed(Throwable e) {
        if (e == escapedFromListener) { // a direct executor ran the drain: a listener's fatal error, not a hand-over
            escapedFromListener = null;
            throw (VirtualMachineError) e;
        }
        if (e instanceof RejectedExecutionException) {
            int dropped;
            synchronized (lock) {
                dropped = pending.size();
                pending.clear();
                draining = false;
            }
            log.warn(
                    "listener executor refused delivery (was it shut down?): {} event(s) dropped: {}",
                    dropped,
                    e.toString());
            return;
        }
        synchronized (lock) {
            draining = false;
        }
        log.error("could not start delivering to the {}s; their events stay queued for the next one", kind, e);
    }

    /** The one task handed to the executor. */
    private final class Drain implements Runnable {
        @Override
        public void run() {
            drain();
        }

        Listeners<?> owner() {
            return Listeners.this;
        }
    }

    private void drain() {
        try {
            while (true) {
                Runnable next;
                synchronized (lock) {
                    next = pending.poll();
                    if (next == null) {
                        draining = false;
                        return;
                    }
                }
                next.run();
            }
        } catch (VirtualMachineError fatal) { // from a listener: let the next flush deliver what is left
            synchronized (lock) {
                draining = false;
            }
            escapedFromListener = fatal;
            throw fatal;
        }
    }
}
