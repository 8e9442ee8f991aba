package io.lake.meta.testkit;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * How long the suites wait and how much they generate on a backend; the defaults suit most
 * backends. A backend whose stores are slow to open runs fewer model-equivalence sequences:
 *
 * <pre>{@code
 * public SuiteSettings settings() {
 *     return SuiteSettings.defaults().withModelEquivalenceSequences(40);   // each sequence opens a table
 * }
 * }</pre>
 *
 * <p>Immutable; each {@code with...} returns a new value.
 *
 * @since 0.1.0
 */
public final class SuiteSettings {

    /**
     * The system property that sets the {@linkplain #raceHookTimeout() race hook timeout} of every
     * backend that does not set its own: an ISO-8601 duration ({@code PT5S}) or a number of
     * seconds ({@code 5}).
     */
    public static final String RACE_HOOK_TIMEOUT_PROPERTY = "lake.meta.testkit.raceHookTimeout";

    /** The default {@link #watchDeliveryTimeout()}: 30 s. */
    public static final Duration DEFAULT_WATCH_DELIVERY_TIMEOUT = Duration.ofSeconds(30);

    /** The default {@link #modelEquivalenceSequences()}: 150. */
    public static final int DEFAULT_MODEL_EQUIVALENCE_SEQUENCES = 150;

    private static final SuiteSettings DEFAULTS =
            new SuiteSettings(null, DEFAULT_WATCH_DELIVERY_TIMEOUT, DEFAULT_MODEL_EQUIVALENCE_SEQUENCES);

    /** Null: the system property, else {@link PausePoints#DEFAULT_SAFETY_TIMEOUT}. */
    private final @Nullable Duration raceHookTimeout;

    private final Duration watchDeliveryTimeout;
    private final int modelEquivalenceSequences;

    private SuiteSettings(
            @Nullable Duration raceHookTimeout, Duration watchDeliveryTimeout, int modelEquivalenceSequences) {
        this.raceHookTimeout = raceHookTimeout;
        this.watchDeliveryTimeout = watchDeliveryTimeout;
        this.modelEquivalenceSequences = modelEquivalenceSequences;
    }

    /** The defaults: race hook timeout from {@value #RACE_HOOK_TIMEOUT_PROPERTY} or 30 s, watch delivery 30 s, 150 sequences. */
    public static SuiteSettings defaults() {
        return DEFAULTS;
    }

    /**
     * How long a race test waits for a commit to reach {@link io.lake.meta.spi.RaceHooks#COMMIT_CHECKED},
     * for a competing writer to park, or for a racer to finish, before it fails: a safety net, never
     * an ordering tool. A backend whose commits are fast may shorten it to fail sooner when its
     * hook is missing.
     *
     * @throws IllegalArgumentException if {@code timeout} is null, zero or negative
     */
    public SuiteSettings withRaceHookTimeout(Duration timeout) {
        return new SuiteSettings(positive(timeout, "raceHookTimeout"), watchDeliveryTimeout, modelEquivalenceSequences);
    }

    /**
     * The longest the watch tests wait for one event. A backend that polls must report a change
     * well within it: give its stores a short poll interval (tens of milliseconds).
     *
     * @throws IllegalArgumentException if {@code timeout} is null, zero or negative
     */
    public SuiteSettings withWatchDeliveryTimeout(Duration timeout) {
        return new SuiteSettings(raceHookTimeout, positive(timeout, "watchDeliveryTimeout"), modelEquivalenceSequences);
    }

    /**
     * How many random operation sequences the model-equivalence tests run, each on a newly opened
     * store: fewer trade coverage for time.
     *
     * @throws IllegalArgumentException if {@code sequences} is below 1
     */
    public SuiteSettings withModelEquivalenceSequences(int sequences) {
        if (sequences < 1) {
            throw new IllegalArgumentException("modelEquivalenceSequences must be at least 1, got " + sequences);
        }
        return new SuiteSettings(raceHookTimeout, watchDeliveryTimeout, sequences);
    }

    /**
     * The race hook timeout: as set, else the {@value #RACE_HOOK_TIMEOUT_PROPERTY} system property,
     * else {@link PausePoints#DEFAULT_SAFETY_TIMEOUT} (30 s).
     *
     * @throws IllegalArgumentException if the system property is neither a duration nor a number of seconds
     */
    public Duration raceHookTimeout() {
        if (raceHookTimeout != null) {
            return raceHookTimeout;
        }
        String configured = System.getProperty(RACE_HOOK_TIMEOUT_PROPERTY);
        if (configured == null || configured.isBlank()) {
            return PausePoints.DEFAULT_SAFETY_TIMEOUT;
        }
        String text = configured.trim();
        try {
            return text.chars().allMatch(Character::isDigit)
                    ? Duration.ofSeconds(Long.parseLong(text))
                    : Duration.parse(text);
        } catch (DateTimeParseException | NumberFormatException e) {
            throw new IllegalArgumentException(
                    RACE_HOOK_TIMEOUT_PROPERTY + " must be an ISO-8601 duration (PT5S) or a"
                            + " number of seconds, got '" + configured + "'",
                    e);
        }
    }

    /** The watch delivery timeout (30 s unless set). */
    public Duration watchDeliveryTimeout() {
        return watchDeliveryTimeout;
    }

    /** How many model-equivalence sequences run (150 unless set). */
    public int modelEquivalenceSequences() {
        return modelEquivalenceSequences;
    }

    private static Duration positive(Duration timeout, String name) {
        if (timeout == null || timeout.isZero() || timeout.isNegative()) {
            throw new IllegalArgumentException(name + " must be positive, got " + timeout);
        }
        return timeout;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof SuiteSettings that
                && Objects.equals(raceHookTimeout, that.raceHookTimeout)
                && watchDeliveryTimeout.equals(that.watchDeliveryTimeout)
                && modelEquivalenceSequences == that.modelEquivalenceSequences;
    }

    @Override
    public int hashCode() {
        return Objects.hash(raceHookTimeout, watchDeliveryTimeout, modelEquivalenceSequences);
    }

    @Override
    public String toString() {
        return "SuiteSettings[raceHookTimeout=" + (raceHookTimeout == null ? "default" : raceHookTimeout)
                + ", watchDeliveryTimeout=" + watchDeliveryTimeout + ", modelEquivalenceSequences="
                + modelEquivalenceSequences + "]";
    }
}
