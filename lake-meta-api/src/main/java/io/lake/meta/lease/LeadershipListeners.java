package io.lake.meta.lease;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The listeners of one election: tells each, in order; a listener that throws is logged and skipped. */
final class LeadershipListeners {

    private static final Logger LOG = LoggerFactory.getLogger(LeaderElection.class);

    private final List<LeadershipListener> listeners = new CopyOnWriteArrayList<>();

    void add(LeadershipListener listener) {
        listeners.add(Objects.requireNonNull(listener, "listener"));
    }

    void gained(LeaseGuard guard) {
        for (LeadershipListener l : listeners) {
            try {
                l.gained(guard);
            } catch (RuntimeException e) {
                LOG.warn("leadership listener {} failed on gained: {}", l, e.toString());
            }
        }
    }

    void lost(long epoch, String reason) {
        for (LeadershipListener l : listeners) {
            try {
                l.lost(epoch, reason);
            } catch (RuntimeException e) {
                LOG.warn("leadership listener {} failed on lost: {}", l, e.toString());
            }
        }
    }
}
