package io.lake.meta.counter;

import io.lake.meta.MetaKey;
import io.lake.meta.MetaStoreException;

/**
 * Every compare-and-set a counter call was allowed lost to another writer of the same counter, so
 * the call handed out nothing. The counter itself is fine: each lost race is another caller's
 * progress. Retryable: call again (later), take larger ranges with
 * {@link MonotonicCounter#nextRange(int)} so fewer writes compete, or allow more attempts.
 *
 * @since 0.1.0
 */
public final class CounterContentionException extends MetaStoreException {

    /** Every one of {@code attempts} compare-and-sets on {@code key} lost its race. */
    public CounterContentionException(MetaKey key, int attempts) {
        super("counter '" + key + "': all " + attempts + " compare-and-set attempts lost to other writers;"
                + " nothing was handed out. Retry later, take larger ranges (nextRange), or raise maxAttempts");
    }

    @Override
    public boolean retryable() {
        return true;
    }
}
