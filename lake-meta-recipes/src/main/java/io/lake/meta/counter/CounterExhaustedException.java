package io.lake.meta.counter;

import io.lake.meta.MetaKey;
import io.lake.meta.MetaStoreException;

/**
 * The counter cannot hand out the values asked for without passing {@link Long#MAX_VALUE}. It
 * fails closed: nothing is written and nothing handed out. A smaller range may still fit. Not
 * retryable.
 *
 * @since 0.1.0
 */
public final class CounterExhaustedException extends MetaStoreException {

    /** {@code count} values from {@code next} would pass {@link Long#MAX_VALUE} on {@code key}. */
    public CounterExhaustedException(MetaKey key, long next, int count) {
        this(key, next, (long) count);
    }

    /**
     * {@code count} values (or an {@link MonotonicCounter#add} of {@code count}) from {@code next}
     * would pass {@link Long#MAX_VALUE} on {@code key}.
     *
     * @since 0.1.0
     */
    public CounterExhaustedException(MetaKey key, long next, long count) {
        super("counter '" + key + "' is at " + next + ": " + count + " more value(s) would pass the largest value "
                + (Long.MAX_VALUE - 1) + " a counter hands out; nothing was written. Move to a new counter key");
    }

    @Override
    public boolean retryable() {
        return false;
    }
}
