package io.lake.meta.testserver.dynamodb.model;

import java.math.BigDecimal;

/**
 * DynamoDB numbers: at most 38 significant digits, magnitude from 1E-130 to just under 1E126,
 * stored and returned in plain canonical form (no leading or trailing zeros, no exponent,
 * {@code -0} becomes {@code 0}).
 *
 * @since 0.1.0
 */
public final class Numbers {

    private Numbers() {}

    /**
     * Parses and checks a number's text.
     *
     * @throws IllegalArgumentException with DynamoDB's message when the text is not a valid number
     */
    public static BigDecimal parse(String text) {
        BigDecimal value;
        try {
            if (text.isEmpty()
                    || text.chars()
                            .anyMatch(c -> !(Character.isDigit(c)
                                    || c == '.'
                                    || c == '-'
                                    || c == '+'
                                    || c == 'e'
                                    || c == 'E'))) {
                throw new NumberFormatException();
            }
            value = new BigDecimal(text.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    text.isEmpty()
                            ? "The parameter cannot be converted to a numeric value"
                            : "The parameter cannot be converted to a numeric value: " + text);
        }
        if (value.signum() == 0) {
            return BigDecimal.ZERO;
        }
        BigDecimal stripped = value.stripTrailingZeros();
        if (stripped.precision() > 38) {
            throw new IllegalArgumentException("Attempting to store more than 38 significant digits in a Number");
        }
        int exponent = adjustedExponent(stripped);
        if (exponent > 125) {
            throw new IllegalArgumentException(
                    "Number overflow. Attempting to store a number with magnitude larger than supported range");
        }
        if (exponent < -130) {
            throw new IllegalArgumentException(
                    "Number underflow. Attempting to store a number with magnitude smaller than supported range");
        }
        return stripped;
    }

    static BigDecimal canonical(BigDecimal value) {
        return value.signum() == 0 ? BigDecimal.ZERO : value.stripTrailingZeros();
    }

    static String toText(BigDecimal canonical) {
        return canonical.signum() == 0 ? "0" : canonical.toPlainString();
    }

    /** The power of ten of the leading digit: 2 for 123.4, -1 for 0.5. */
    static int adjustedExponent(BigDecimal nonZero) {
        return nonZero.precision() - nonZero.scale() - 1;
    }

    /**
     * The stored size of a number: about one byte per two significant digits plus one, plus one
     * when negative (the formula dynalite fitted against live DynamoDB).
     */
    static int size(BigDecimal canonical) {
        if (canonical.signum() == 0) {
            return 1;
        }
        int digits = canonical.precision();
        int exponent = adjustedExponent(canonical);
        int size = 1 + (digits + 1) / 2;
        if (digits % 2 == 0 && Math.floorMod(exponent, 2) == 0) {
            size++;
        }
        if (canonical.signum() < 0) {
            size++;
        }
        return size;
    }
}
