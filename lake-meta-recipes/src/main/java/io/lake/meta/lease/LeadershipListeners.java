package io.lake.meta.lease;

import io.lake.meta.internal.ListenerQueue;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import org.slf4j.Logger;

/**
 * The listeners of one candidate. The campaign announces transitions under its owner's round lock;
 * they are queued in that order and delivered on the listener executor once the owner
 * {@link #flush() flushes} after releasing the lock, so a listener may call back into the
 * election (resign, a fenced write, {@code guardRejected}) without deadlock. A listener that
 * throws (an exception, or an error short of a {@link VirtualMachineError}) is logged and skipped:
 * the other listeners still hear the event, and the rounds go on.
 */
final class LeadershipListeners {

    /** The owner's logger (the public class, where users configure logging). */
    private final Logger log;
    private final List<LeadershipListener> listeners = new CopyOnWriteArrayList<>();
    private final ListenerQueue queue;

    LeadershipListeners(Executor executor, Logger log) {
        this.log = log;
        this.queue = new ListenerQueue(executor, log);
    }

    void add(LeadershipListener listener) {
        listeners.add(LeaseArguments.notNull(listener, "listener"));
    }

    /** Queues "gained" for the listeners registered now. */
    void gained(LeaseGuard guard) {
        List<LeadershipListener> now = List.copyOf(listeners);
        queue.post(() -> {
            for (LeadershipListener l : now) {
                try {
                    l.gained(guard);
                } catch (RuntimeException | Error e) {
                    rethrowIfFatal(e); // an assert or a linkage error in one listener is that listener's failure
                    log.warn("leadership listener {} failed on gained: {}", l, e.toString());
                }
            }
        });
    }

    /** Queues "lost" for the listeners registered now. */
    void lost(long epoch, String reason) {
        List<LeadershipListener> now = List.copyOf(listeners);
        queue.post(() -> {
            for (LeadershipListener l : now) {
                try {
                    l.lost(epoch, reason);
                } catch (RuntimeException | Error e) {
                    rethrowIfFatal(e); // an assert or a linkage error in one listener is that listener's failure
                    log.warn("leadership listener {} failed on lost: {}", l, e.toString());
                }
            }
        });
    }

    /** Rethrows what no listener can cause alone (the JVM is failing); anything else is logged and skipped. */
    static void rethrowIfFatal(Throwable t) {
        if (t instanceof VirtualMachineError fatal) {
            throw fatal;
        }
    }

    /** Delivers what was queued; call holding none of the owner's locks. */
    void flush() {
        queue.flush();
    }
}
