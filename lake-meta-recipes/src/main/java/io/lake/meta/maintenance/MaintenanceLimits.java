package io.lake.meta.maintenance;

import io.lake.meta.InvalidArgumentException;
import io.lake.meta.Limits;
import io.lake.meta.internal.Checks;
import io.lake.meta.internal.LeaseSettings;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * How often the sweeper ticks and how many registrations one tick reads. Validated when built:
 * the interval is positive and at most 365 days, the page size is 1 to {@value #MAX_PAGE_SIZE}. Immutable.
 *
 * <p>Defaults: interval {@value #DEFAULT_INTERVAL_TEXT}, page size {@value #DEFAULT_PAGE_SIZE}. Services
 * and the command line read them in one place, {@link #fromSettings}: an option beats the
 * environment variable, which beats the default.
 *
 * @since 0.1.0
 */
public final class MaintenanceLimits {

    /** Environment variable of the interval, e.g. {@code 30s}. */
    public static final String INTERVAL_ENV = "LAKE_META_MAINTENANCE_INTERVAL";
    /** Environment variable of the page size, e.g. {@code 500}. */
    public static final String PAGE_SIZE_ENV = "LAKE_META_MAINTENANCE_PAGE_SIZE";
    /** Option name of the interval (the command line's {@code --interval}). */
    public static final String INTERVAL_OPTION = "interval";
    /** Option name of the page size (the command line's {@code --page-size}). */
    public static final String PAGE_SIZE_OPTION = "page-size";

    /** The largest page size: the store's page limit. */
    public static final int MAX_PAGE_SIZE = Limits.MAX_PAGE_LIMIT;

    public static final int DEFAULT_PAGE_SIZE = 100;
    static final String DEFAULT_INTERVAL_TEXT = "60s";
    public static final Duration DEFAULT_INTERVAL = Duration.ofSeconds(60);
    /**
     * The longest interval, 365 days (as every lease setting): the schedule counts it in nanoseconds.
     *
     * @since 0.1.0
     */
    public static final Duration MAX_INTERVAL = LeaseSettings.MAX_DURATION;

    private final Duration interval;
    private final int pageSize;

    private MaintenanceLimits(Duration interval, int pageSize) {
        this.interval = interval;
        this.pageSize = pageSize;
    }

    /** The defaults: {@value #DEFAULT_INTERVAL_TEXT} and {@value #DEFAULT_PAGE_SIZE}. */
    public static MaintenanceLimits defaults() {
        return new MaintenanceLimits(DEFAULT_INTERVAL, DEFAULT_PAGE_SIZE);
    }

    /**
     * Limits of an interval and a page size.
     *
     * @throws InvalidArgumentException if the interval is null, zero or negative, or the page size
     *     is outside 1..{@value #MAX_PAGE_SIZE}
     */
    public static MaintenanceLimits of(Duration interval, int pageSize) {
        return new MaintenanceLimits(requireInterval(interval, "interval"), requirePageSize(pageSize, "page size"));
    }

    /**
     * The limits a process is configured with: for each, the option if given, else the environment
     * variable if set, else the default. Durations are a whole number with a unit ({@code 500ms},
     * {@code 30s}, {@code 5m}, {@code 2h}, {@code 1d}) or ISO-8601 ({@code PT30S}); page sizes a whole number.
     *
     * @param environment the process environment ({@code System.getenv()}); only the two
     *     {@code LAKE_META_MAINTENANCE_*} variables are read
     * @param options options given explicitly (command-line options), keyed by
     *     {@value #INTERVAL_OPTION} and {@value #PAGE_SIZE_OPTION}; an empty map when none
     * @throws InvalidArgumentException naming the variable or option, when a value is malformed or out
     *     of range or an option is unknown; nothing runs
     */
    public static MaintenanceLimits fromSettings(Map<String, String> environment, Map<String, String> options) {
        Checks.notNull(environment, "environment");
        Checks.notNull(options, "options");
        for (String name : options.keySet()) {
            if (!INTERVAL_OPTION.equals(name) && !PAGE_SIZE_OPTION.equals(name)) {
                throw new InvalidArgumentException("unknown maintenance option '" + name + "': use " + INTERVAL_OPTION
                        + " or " + PAGE_SIZE_OPTION);
            }
        }
        Duration interval = DEFAULT_INTERVAL;
        long pageSize = DEFAULT_PAGE_SIZE;
        String intervalSource = "interval";
        String pageSizeSource = "page size";
        if (options.containsKey(INTERVAL_OPTION)) {
            intervalSource = "--" + INTERVAL_OPTION;
            interval = SettingText.duration(options.get(INTERVAL_OPTION), intervalSource);
        } else if (environment.containsKey(INTERVAL_ENV)) {
            intervalSource = INTERVAL_ENV;
            interval = SettingText.duration(environment.get(INTERVAL_ENV), intervalSource);
        }
        if (options.containsKey(PAGE_SIZE_OPTION)) {
            pageSizeSource = "--" + PAGE_SIZE_OPTION;
            pageSize = SettingText.wholeNumber(options.get(PAGE_SIZE_OPTION), pageSizeSource);
        } else if (environment.containsKey(PAGE_SIZE_ENV)) {
            pageSizeSource = PAGE_SIZE_ENV;
            pageSize = SettingText.wholeNumber(environment.get(PAGE_SIZE_ENV), pageSizeSource);
        }
        return new MaintenanceLimits(
                requireInterval(interval, intervalSource), requirePageSize(pageSize, pageSizeSource));
    }

    private static Duration requireInterval(Duration interval, String source) {
        Checks.notNull(interval, source);
        if (interval.isZero() || interval.isNegative()) {
            throw new InvalidArgumentException(source + " " + interval + " must be positive (such as 30s or 5m)");
        }
        if (interval.compareTo(MAX_INTERVAL) > 0) {
            throw new InvalidArgumentException(source + " " + interval + " is too long: use at most 365 days");
        }
        return interval;
    }

    private static int requirePageSize(long pageSize, String source) {
        if (pageSize < 1 || pageSize > MAX_PAGE_SIZE) {
            throw new InvalidArgumentException(source + " " + pageSize + " is out of range: use 1 to " + MAX_PAGE_SIZE
                    + " (the store's page limit)");
        }
        return (int) pageSize;
    }

    /** The time between two ticks of a scheduled sweeper. */
    public Duration interval() {
        return interval;
    }

    /** The most registrations one tick reads (one store page). */
    public int pageSize() {
        return pageSize;
    }

    @Override
    public boolean equals(@Nullable Object o) {
        return o instanceof MaintenanceLimits
                && ((MaintenanceLimits) o).interval.equals(interval)
                && ((MaintenanceLimits) o).pageSize == pageSize;
    }

    @Override
    public int hashCode() {
        return Objects.hash(interval, pageSize);
    }

    @Override
    public String toString() {
        return "MaintenanceLimits[interval=" + interval + ", pageSize=" + pageSize + "]";
    }
}
