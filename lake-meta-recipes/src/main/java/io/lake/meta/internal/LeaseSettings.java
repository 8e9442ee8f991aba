package io.lake.meta.internal;

import io.lake.meta.InvalidArgumentException;
import io.lake.meta.Ticker;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import org.jspecify.annotations.Nullable;

/**
 * The lease options of one lease-based builder ({@code LeaderElection}, {@code LeaseCandidate},
 * {@code FencedLock}, {@code FencedTableLocks}), each set once ({@link Options#setOnce}) and
 * validated when set, here, with one rule set for all: every duration is at most
 * {@link #MAX_DURATION} (365 days), so a local deadline (a ticker reading plus a duration in
 * nanoseconds) and a schedule never overflow; a bad value is an {@link InvalidArgumentException}
 * naming the option. The combination is checked when the builder builds, and the getters answer
 * the defaults for options left unset. Not thread-safe: it is one builder's.
 *
 * @since 0.1.0
 */
public final class LeaseSettings {

    /** The longest lease, margin, renew or retry interval: 365 days. */
    public static final Duration MAX_DURATION = Duration.ofDays(365);

    /** The longest candidate or holder id written into a lease record. */
    public static final int MAX_ID_LENGTH = 256;

    private @Nullable Duration leaseDuration;
    private @Nullable Duration safetyMargin;
    private @Nullable Duration renewInterval;
    private @Nullable Duration retryInterval;
    private @Nullable Clock clock;
    private @Nullable Ticker ticker;
    private @Nullable ScheduledExecutorService scheduler;
    private @Nullable Executor listenerExecutor;

    /**
     * Checks an id written into the lease record ({@code name}: candidateId, holderId): 1 to
     * {@value #MAX_ID_LENGTH} characters, not blank.
     *
     * @return {@code id}
     */
    public static String id(@Nullable String id, String name) {
        String checked = Checks.notNull(id, name);
        if (checked.isBlank() || checked.length() > MAX_ID_LENGTH) {
            throw new InvalidArgumentException(
                    name + " must be 1 to " + MAX_ID_LENGTH + " characters and not blank, got '" + checked + "'");
        }
        return checked;
    }

    /** How long an installed or renewed lease lasts: at least 1 ms, at most 365 days. */
    public void leaseDuration(@Nullable Duration value) {
        Duration d = Options.setOnce(leaseDuration, value, "leaseDuration");
        if (d.compareTo(Duration.ofMillis(1)) < 0) {
            throw new InvalidArgumentException("leaseDuration must be at least 1 ms, got " + d);
        }
        leaseDuration = atMostMax(d, "leaseDuration");
    }

    /** How much earlier than the lease the holder's view ends: zero to 365 days. */
    public void safetyMargin(@Nullable Duration value) {
        Duration m = Options.setOnce(safetyMargin, value, "safetyMargin");
        if (m.isNegative()) {
            throw new InvalidArgumentException("safetyMargin must not be negative, got " + m);
        }
        safetyMargin = atMostMax(m, "safetyMargin");
    }

    /** The delay between renewals: positive, at most 365 days. */
    public void renewInterval(@Nullable Duration value) {
        renewInterval = interval(Options.setOnce(renewInterval, value, "renewInterval"), "renewInterval");
    }

    /** The delay between acquisition rounds while another holds the lease: positive, at most 365 days. */
    public void retryInterval(@Nullable Duration value) {
        retryInterval = interval(Options.setOnce(retryInterval, value, "retryInterval"), "retryInterval");
    }

    /** The wall clock of the record's expiry and of judging others' records. */
    public void clock(@Nullable Clock value) {
        clock = Options.setOnce(clock, value, "clock");
    }

    /** The monotonic ticker of the local deadline. */
    public void ticker(@Nullable Ticker value) {
        ticker = Options.setOnce(ticker, value, "ticker");
    }

    /** The caller's scheduler of the background rounds, never shut down by the recipe. */
    public void scheduler(@Nullable ScheduledExecutorService value) {
        scheduler = Options.setOnce(scheduler, value, "scheduler");
    }

    /** Where the listeners are called. */
    public void listenerExecutor(@Nullable Executor value) {
        listenerExecutor = Options.setOnce(listenerExecutor, value, "listenerExecutor");
    }

    /**
     * The lease duration.
     *
     * @throws IllegalStateException if the lease duration (always required) was not set
     */
    public Duration leaseDuration() {
        return Options.required(leaseDuration, "leaseDuration");
    }

    /**
     * The safety margin (default zero), checked shorter than the lease.
     *
     * @param holder who trusts the lease, for the message ("a leader", "a hold")
     * @throws InvalidArgumentException otherwise: {@code holder} would never trust its own lease
     */
    public Duration marginFor(String holder) {
        Duration lease = leaseDuration();
        Duration margin = safetyMargin != null ? safetyMargin : Duration.ZERO;
        if (margin.compareTo(lease) >= 0) {
            throw new InvalidArgumentException("safetyMargin " + margin + " must be shorter than leaseDuration " + lease
                    + ": otherwise " + holder + " would never trust its own lease");
        }
        return margin;
    }

    /**
     * The renew interval (default a third of the lease), checked with the margin.
     *
     * @param holder who trusts the lease, for the message ("a leader", "a hold")
     * @throws InvalidArgumentException if the margin is not shorter than the lease, or the renew
     *     interval not shorter than lease minus margin
     */
    public Duration renewIntervalFor(String holder) {
        Duration lease = leaseDuration();
        Duration valid = lease.minus(marginFor(holder));
        Duration renew = renewInterval != null ? renewInterval : lease.dividedBy(3);
        if (renew.isZero() || renew.compareTo(valid) >= 0) {
            throw new InvalidArgumentException(
                    "renewInterval " + renew + " must be shorter than leaseDuration" + " minus safetyMargin (" + valid
                            + "): otherwise " + holder + "'s lease expires before it is renewed");
        }
        return renew;
    }

    /** The retry interval; default {@code renewInterval}. */
    public Duration retryIntervalOr(Duration renewInterval) {
        return retryInterval != null ? retryInterval : renewInterval;
    }

    /** The wall clock; default UTC system time. */
    public Clock clock() {
        return clock != null ? clock : Clock.systemUTC();
    }

    /** The monotonic ticker; default {@link Ticker#system()}. */
    public Ticker ticker() {
        return ticker != null ? ticker : Ticker.system();
    }

    /** The supplied scheduler, or null: the recipe runs its rounds on a thread of its own. */
    public @Nullable ScheduledExecutorService scheduler() {
        return scheduler;
    }

    /** The supplied listener executor, or one daemon thread named {@code threadName} ({@link Listeners#oneThread}). */
    public Executor listenerExecutor(String threadName) {
        return listenerExecutor != null ? listenerExecutor : Listeners.oneThread(threadName);
    }

    private static Duration interval(Duration interval, String name) {
        if (interval.isNegative() || interval.isZero()) {
            throw new InvalidArgumentException(name + " must be positive, got " + interval);
        }
        return atMostMax(interval, name);
    }

    private static Duration atMostMax(Duration d, String name) {
        if (d.compareTo(MAX_DURATION) > 0) {
            throw new InvalidArgumentException(name + " must be at most 365 days, got " + d);
        }
        return d;
    }
}
