package io.lake.meta.lease;

import io.lake.meta.MetaKey;
import io.lake.meta.MetaValue;
import org.jspecify.annotations.Nullable;

/**
 * What one candidate remembers of its terms: the record bytes it installed, a write whose answer
 * was lost, the highest epoch it has seen and the highest whose term ended here. (Not the terms of
 * a lease, its duration and margin: those are the builder's settings.) With that memory it keeps
 * two rules:
 * <ul>
 *   <li>one term per epoch: once a term has ended (its "lost" announced), the election never
 *       leads in that epoch again, not even by renewing or adopting its own record;</li>
 *   <li>a new term goes past every epoch this election has seen, so a deleted or rewound record
 *       cannot hand it an epoch it already saw.</li>
 * </ul>
 * Not thread-safe: the election's round lock guards it.
 */
final class TermMemory {

    private final MetaKey leaseKey;
    /** The last bytes known to be installed by this election; null when the record is not ours. */
    private @Nullable LeaseInstallation installed;
    /** Bytes sent whose answer was lost; resolved by the next read of the record. */
    private @Nullable LeaseInstallation unresolved;

    private long highestEpochSeen;
    /** The highest epoch whose term ended here; 0 when none has. */
    private long highestEpochEnded;

    TermMemory(MetaKey leaseKey) {
        this.leaseKey = leaseKey;
    }

    @Nullable
    LeaseInstallation installed() {
        return installed;
    }

    @Nullable
    LeaseInstallation unresolved() {
        return unresolved;
    }

    /** The installation of this election the record holds when it holds {@code bytes}, or null. */
    @Nullable
    LeaseInstallation own(MetaValue bytes) {
        if (installed != null && installed.bytes().equals(bytes)) {
            return installed;
        }
        if (unresolved != null && unresolved.bytes().equals(bytes)) {
            return unresolved;
        }
        return null;
    }

    /** {@code attempt} was sent and its answer lost: it may be the record now. */
    void sent(LeaseInstallation attempt) {
        unresolved = attempt;
    }

    /** The record holds {@code installation}: it is ours, and any other lost write did not apply. */
    void installed(LeaseInstallation installation) {
        installed = installation;
        unresolved = null;
        saw(installation.epoch());
    }

    /** The record holds nothing of this election's. */
    void forget() {
        installed = null;
        unresolved = null;
    }

    /** The published guard of {@code installed} is gone; a lost write may still turn out to be ours. */
    void forgetInstalled() {
        installed = null;
    }

    void saw(long epoch) {
        highestEpochSeen = Math.max(highestEpochSeen, epoch);
    }

    /** Term {@code epoch} ended: listeners heard "lost". */
    void ended(long epoch) {
        highestEpochEnded = Math.max(highestEpochEnded, epoch);
        saw(epoch);
    }

    /** Whether this election may still lead in {@code epoch}: its term has not ended. */
    boolean isLive(long epoch) {
        return epoch > highestEpochEnded;
    }

    /** Whether the record holding {@code own} may be renewed in the same term at ticker {@code nowNanos}. */
    boolean renewable(LeaseInstallation own, long nowNanos) {
        return isLive(own.epoch()) && !own.expiredAt(nowNanos);
    }

    /**
     * The epoch of a new term over a record at {@code recordEpoch} (0 when absent): past the record
     * and past everything this election has seen.
     *
     * @throws LeaseEpochExhaustedException if that would pass {@link Long#MAX_VALUE}
     */
    long nextTerm(long recordEpoch) {
        long highest = Math.max(recordEpoch, highestEpochSeen);
        if (highest == Long.MAX_VALUE) {
            throw new LeaseEpochExhaustedException(leaseKey);
        }
        return highest + 1;
    }
}
