package io.lake.meta.internal;

import io.lake.meta.InvalidArgumentException;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * The lease settings every lease-based builder takes ({@code LeaderElection}, {@code LeaseCandidate},
 * {@code FencedLock}, {@code FencedTableLocks}), validated once, here, the same way for all: every
 * duration is at most {@link #MAX_DURATION} (365 days), so a local deadline (a ticker reading plus
 * a duration in nanoseconds) and a schedule never overflow; a bad value is an
 * {@link InvalidArgumentException} naming the setting.
 */
public final class LeaseSettings {

    /** The longest lease, margin, renew or retry interval: 365 days. */
    public static final Duration MAX_DURATION = Duration.ofDays(365);

    private LeaseSettings() {
    }

    /** How long an installed or renewed lease lasts: at least 1 ms, at most 365 days. */
    public static Duration leaseDuration(Duration leaseDuration) {
        notNull(leaseDuration, "leaseDuration");
        if (leaseDuration.compareTo(Duration.ofMillis(1)) < 0) {
            throw new InvalidArgumentException("leaseDuration must be at least 1 ms, got " + leaseDuration);
        }
        return atMostMax(leaseDuration, "leaseDuration");
    }

    /** How much earlier than the lease the holder's view ends: zero to 365 days. */
    public static Duration safetyMargin(Duration safetyMargin) {
        notNull(safetyMargin, "safetyMargin");
        if (safetyMargin.isNegative()) {
            throw new InvalidArgumentException("safetyMargin must not be negative, got " + safetyMargin);
        }
        return atMostMax(safetyMargin, "safetyMargin");
    }

    /** A delay between rounds ({@code name}: renewInterval, retryInterval...): positive, at most 365 days. */
    public static Duration interval(Duration interval, String name) {
        notNull(interval, name);
        if (interval.isNegative() || interval.isZero()) {
            throw new InvalidArgumentException(name + " must be positive, got " + interval);
        }
        return atMostMax(interval, name);
    }

    /**
     * Checks the combination and returns the renew interval to use.
     *
     * @param safetyMargin null for the default, zero
     * @param renewInterval null for the default, a third of the lease duration
     * @param holder who trusts the lease, for the message ("a leader", "a hold")
     * @throws InvalidArgumentException if the margin is not shorter than the lease, or the renew
     *     interval not shorter than lease minus margin
     */
    public static Duration renewInterval(Duration leaseDuration, @Nullable Duration safetyMargin,
            @Nullable Duration renewInterval, String holder) {
        Duration margin = marginShorterThanLease(leaseDuration, safetyMargin, holder);
        Duration valid = leaseDuration.minus(margin);
        Duration renew = renewInterval != null ? renewInterval : leaseDuration.dividedBy(3);
        if (renew.isZero() || renew.compareTo(valid) >= 0) {
            throw new InvalidArgumentException("renewInterval " + renew + " must be shorter than leaseDuration"
                    + " minus safetyMargin (" + valid + "): otherwise " + holder + "'s lease expires before it is renewed");
        }
        return renew;
    }

    /**
     * Checks that the margin (null: zero) is shorter than the lease and returns it.
     *
     * @throws InvalidArgumentException otherwise: {@code holder} would never trust its own lease
     */
    public static Duration marginShorterThanLease(Duration leaseDuration, @Nullable Duration safetyMargin,
            String holder) {
        Duration margin = safetyMargin != null ? safetyMargin : Duration.ZERO;
        if (margin.compareTo(leaseDuration) >= 0) {
            throw new InvalidArgumentException("safetyMargin " + margin + " must be shorter than leaseDuration "
                    + leaseDuration + ": otherwise " + holder + " would never trust its own lease");
        }
        return margin;
    }

    private static Duration atMostMax(Duration d, String name) {
        if (d.compareTo(MAX_DURATION) > 0) {
            throw new InvalidArgumentException(name + " must be at most 365 days, got " + d);
        }
        return d;
    }

    private static void notNull(Object value, String name) {
        if (value == null) {
            throw new InvalidArgumentException(name + " must not be null");
        }
    }
}
