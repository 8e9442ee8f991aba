package io.lake.meta.maintenance;

import io.lake.meta.InvalidArgumentException;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads setting values written by people: durations with a unit, whole numbers. */
final class SettingText {

    private static final Pattern WITH_UNIT = Pattern.compile("(-?[0-9]{1,18})(ms|s|m|h|d)");

    private SettingText() {}

    /**
     * {@code 500ms}, {@code 30s}, {@code 5m}, {@code 2h}, {@code 1d} or ISO-8601 ({@code PT30S}).
     * Zero and negative values parse; the caller decides what is in range.
     */
    static Duration duration(String text, String source) {
        if (text == null || text.isBlank()) {
            throw new InvalidArgumentException(source + " is empty: give a duration such as 30s, 5m or PT30S");
        }
        String trimmed = text.trim();
        Matcher m = WITH_UNIT.matcher(trimmed);
        if (m.matches()) {
            long amount = Long.parseLong(m.group(1));
            try {
                switch (m.group(2)) {
                    case "ms":
                        return Duration.ofMillis(amount);
                    case "s":
                        return Duration.ofSeconds(amount);
                    case "m":
                        return Duration.ofMinutes(amount);
                    case "h":
                        return Duration.ofHours(amount);
                    default:
                        return Duration.ofDays(amount);
                }
            } catch (ArithmeticException e) {
                throw new InvalidArgumentException(source + " '" + text + "' is too large for a duration");
            }
        }
        try {
            return Duration.parse(trimmed);
        } catch (DateTimeParseException e) {
            throw new InvalidArgumentException(source + " '" + text + "' is not a duration: use a whole number with a"
                    + " unit (500ms, 30s, 5m, 2h, 1d) or ISO-8601 (PT30S)");
        }
    }

    /** A whole number in decimal; range is the caller's to check. */
    static long wholeNumber(String text, String source) {
        if (text == null || text.isBlank()) {
            throw new InvalidArgumentException(source + " is empty: give a whole number");
        }
        try {
            return Long.parseLong(text.trim());
        } catch (NumberFormatException e) {
            throw new InvalidArgumentException(source + " '" + text + "' is not a whole number");
        }
    }
}
