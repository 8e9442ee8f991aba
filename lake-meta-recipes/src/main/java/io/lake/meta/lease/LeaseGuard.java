package io.lake.meta.lease;

import io.lake.meta.MetaKey;
import io.lake.meta.MetaValue;
import io.lake.meta.Ticker;
import io.lake.meta.internal.Checks;

/**
 * Proof of leadership for one lease installation: the exact lease bytes the leader installed,
 * their epoch, and the local monotonic deadline after which the leader must stop relying on
 * them. A fenced write sends {@link #leaseBytes()} as the expected guard, so the store refuses
 * it as soon as anyone else has changed the lease record, whatever the clocks say.
 *
 * <p>Immutable. Each renewal or takeover publishes a new guard; the old one is not updated.
 *
 * @since 0.1.0
 */
public final class LeaseGuard {

    private final MetaKey leaseKey;
    private final MetaValue leaseBytes;
    private final long epoch;
    private final long localDeadlineNanos;

    /**
     * @param leaseKey the lease key the bytes were installed under
     * @param leaseBytes the exact bytes installed
     * @param epoch the epoch recorded in those bytes
     * @param localDeadlineNanos the {@link Ticker} reading from which the guard is no longer valid
     * @throws io.lake.meta.InvalidArgumentException if the key or bytes are null or the epoch is negative
     */
    public LeaseGuard(MetaKey leaseKey, MetaValue leaseBytes, long epoch, long localDeadlineNanos) {
        this.leaseKey = Checks.notNull(leaseKey, "lease key");
        this.leaseBytes = Checks.notNull(leaseBytes, "lease bytes");
        this.epoch = Checks.notNegative(epoch, "epoch");
        this.localDeadlineNanos = localDeadlineNanos;
    }

    /** The key of the lease record this guard stands for. */
    public MetaKey leaseKey() {
        return leaseKey;
    }

    /** The exact bytes installed under the lease key; a fenced write expects exactly these. */
    public MetaValue leaseBytes() {
        return leaseBytes;
    }

    /** The term's epoch, monotonic along the lease's history. */
    public long epoch() {
        return epoch;
    }

    /** The ticker reading at which this guard stops being valid. */
    public long localDeadlineNanos() {
        return localDeadlineNanos;
    }

    /** Whether the guard is still valid at ticker reading {@code nowNanos} (overflow-safe comparison). */
    public boolean isValidAt(long nowNanos) {
        return nowNanos - localDeadlineNanos < 0;
    }

    @Override
    public String toString() {
        return "LeaseGuard[" + leaseKey + ", epoch=" + epoch + ", localDeadlineNanos=" + localDeadlineNanos + "]";
    }
}
