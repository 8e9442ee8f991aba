package io.lake.meta.lock;

import io.lake.meta.internal.Listeners;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The listener executor a {@link LeaseLock} hands its candidate: a delivery asked for by a thread
 * that holds the lock's mutex (the candidate flushes its events after its own lock, but a renewal
 * or release still holds the lock's mutex then) waits until that thread releases the mutex, so
 * listeners never run under it, whatever executor the caller chose ({@code Runnable::run}
 * included).
 */
final class MutexAwareDelivery implements Executor {

    private final Executor target;
    private final ReentrantLock mutex;
    private final Queue<Runnable> deferred = new ConcurrentLinkedQueue<>();

    MutexAwareDelivery(Executor target, ReentrantLock mutex) {
        this.target = target;
        this.mutex = mutex;
    }

    @Override
    public void execute(Runnable delivery) {
        if (mutex.isHeldByCurrentThread()) {
            deferred.add(delivery);
        } else {
            target.execute(delivery);
        }
    }

    /** Call after releasing the mutex: hands deferred deliveries to the executor. */
    void released() {
        if (mutex.isHeldByCurrentThread()) {
            return; // still inside (reentrant): the outermost release hands them over
        }
        Runnable delivery;
        while ((delivery = deferred.poll()) != null) {
            try {
                target.execute(delivery);
            } catch (RuntimeException | Error e) { // refused now: as if refused when the listeners flushed
                Listeners.handOverFailed(delivery, e);
            }
        }
    }
}
