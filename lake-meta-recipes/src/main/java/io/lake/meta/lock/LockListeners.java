package io.lake.meta.lock;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The listeners of one lock: tells each, in order; a listener that throws is logged and skipped. */
final class LockListeners {

    private static final Logger LOG = LoggerFactory.getLogger(FencedLock.class);

    private final List<LockListener> listeners = new CopyOnWriteArrayList<>();

    void add(LockListener listener) {
        listeners.add(listener);
    }

    void lost(LockHold hold, String reason) {
        for (LockListener l : listeners) {
            try {
                l.lost(hold, reason);
            } catch (RuntimeException | Error e) {
                if (e instanceof VirtualMachineError fatal) {
                    throw fatal;
                }
                LOG.warn("lock listener {} failed on lost: {}", l, e.toString());
            }
        }
    }
}
