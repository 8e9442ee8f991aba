package io.lake.meta.lease;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;

/** The listeners of one candidate: tells each, in order; a listener that throws is logged and skipped. */
final class LeadershipListeners {

    /** The owner's logger (the public class, where users configure logging). */
    private final Logger log;
    private final List<LeadershipListener> listeners = new CopyOnWriteArrayList<>();

    LeadershipListeners(Logger log) {
        this.log = log;
    }

    void add(LeadershipListener listener) {
        listeners.add(Objects.requireNonNull(listener, "listener"));
    }

    void gained(LeaseGuard guard) {
        for (LeadershipListener l : listeners) {
            try {
                l.gained(guard);
            } catch (RuntimeException e) {
                log.warn("leadership listener {} failed on gained: {}", l, e.toString());
            }
        }
    }

    void lost(long epoch, String reason) {
        for (LeadershipListener l : listeners) {
            try {
                l.lost(epoch, reason);
            } catch (RuntimeException e) {
                log.warn("leadership listener {} failed on lost: {}", l, e.toString());
            }
        }
    }
}
