package io.lake.meta.counter;

import io.lake.meta.InvalidArgumentException;
import java.util.stream.LongStream;

/**
 * Consecutive counter values handed out together: {@code first}, {@code first + 1}, ...,
 * {@link #last()}. Nobody else is ever handed any of them.
 *
 * @param first the lowest value, at least 0
 * @param count how many values, at least 1
 * @since 0.1.0
 */
public record CounterRange(long first, int count) {

    public CounterRange {
        if (first < 0 || count < 1 || first > Long.MAX_VALUE - count) {
            throw new InvalidArgumentException("a counter range holds 1 or more values from 0 to " + Long.MAX_VALUE
                    + ", got first " + first + " and count " + count);
        }
    }

    /** The highest value. */
    public long last() {
        return first + count - 1;
    }

    /** Whether {@code value} is one of this range's values. */
    public boolean contains(long value) {
        return value >= first && value <= last();
    }

    /** The values, in increasing order. */
    public LongStream values() {
        return LongStream.rangeClosed(first, last());
    }
}
