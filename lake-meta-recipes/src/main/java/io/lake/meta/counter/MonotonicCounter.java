package io.lake.meta.counter;

import io.lake.meta.InvalidArgumentException;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaStoreException;
import io.lake.meta.StoreUnavailableException;
import io.lake.meta.internal.Options;
import org.jspecify.annotations.Nullable;

/**
 * A counter under one key that hands out increasing values, each one at most once, to every
 * caller on every backend: by exact-bytes compare-and-set on a small JSON record. {@link #next()}
 * takes one value; {@link #nextRange(int)} takes many with the same single write, for high rates
 * (hand them out locally).
 *
 * <ul>
 *   <li>Never twice: a value is handed out only once the write that claimed it is known to have
 *       applied. After a lost answer the counter re-reads the record: if it still holds that
 *       write's bytes (unique per write), the write applied and its values are handed out;
 *       otherwise they are never handed out, whether the write applied or not.</li>
 *   <li>Increasing, not gap-free: values claimed by a write whose answer was lost, or handed to a
 *       caller that crashed, are skipped for good.</li>
 *   <li>Bounded: a call makes at most {@code maxAttempts} compare-and-sets, then raises
 *       {@link CounterContentionException} having handed out nothing.</li>
 * </ul>
 *
 * <pre>{@code
 * MonotonicCounter ids = MonotonicCounter.builder()
 *         .store(store)                                 // you own it
 *         .key(MetaKey.of("seq/table-ids"))
 *         .build();
 * long id = ids.next();
 * CounterRange batch = ids.nextRange(1000);             // one write for a thousand values
 * }</pre>
 *
 * <p>No lifecycle: a counter holds nothing open and runs nothing between calls. Thread-safe.
 *
 * @since 0.1.0
 */
public interface MonotonicCounter {

    /** A builder for a counter: store and key are required. */
    static Builder builder() {
        return new Builder();
    }

    /** The key of the counter record. */
    MetaKey key();

    /**
     * One value, higher than every value handed out before by this key's counters.
     *
     * @throws CounterContentionException if every attempt lost to another writer; nothing handed out
     * @throws CounterExhaustedException if the counter is at its last value; nothing written
     * @throws CorruptCounterRecordException if the key holds no counter record; nothing written
     * @throws StoreUnavailableException if the store failed; nothing handed out (values may be skipped)
     * @throws MetaStoreException any other store failure (a fenced store's {@code FencedException}...)
     */
    long next();

    /**
     * {@code count} consecutive values with one write, each higher than every value handed out
     * before by this key's counters.
     *
     * @param count at least 1
     * @throws InvalidArgumentException if {@code count} is below 1; nothing read or written
     * @throws CounterContentionException if every attempt lost to another writer; nothing handed out
     * @throws CounterExhaustedException if fewer than {@code count} values are left; nothing written
     * @throws CorruptCounterRecordException if the key holds no counter record; nothing written
     * @throws StoreUnavailableException if the store failed; nothing handed out (values may be skipped)
     */
    CounterRange nextRange(int count);

    /**
     * The lowest value not handed out yet ({@code firstValue} on a fresh key), as one read sees
     * it: the value a {@link #next()} right now would hand out, unless another caller takes it
     * first. Writes nothing.
     *
     * @throws CorruptCounterRecordException if the key holds no counter record
     * @throws StoreUnavailableException if the store failed
     * @since 0.1.0
     */
    long get();

    /**
     * Moves the counter forward by {@code delta} with one write (like etcd's or Curator's atomic
     * add, forward only): the {@code delta} values skipped are never handed out. A lost answer is
     * resolved by re-reading: the counter moves once or the caller is told it may have moved.
     *
     * @param delta at least 1
     * @return the counter's value after the move: what {@link #get()} answers right after it
     * @throws InvalidArgumentException if {@code delta} is below 1; nothing read or written
     * @throws CounterContentionException if every attempt lost to another writer; nothing moved
     * @throws CounterExhaustedException if the counter cannot move that far; nothing written
     * @throws CorruptCounterRecordException if the key holds no counter record; nothing written
     * @throws io.lake.meta.OutcomeUnknownException if a write's answer was lost and the re-read cannot
     *     prove whether it applied (another writer moved the counter since): it moved by {@code delta}
     *     or not at all; never twice
     * @since 0.1.0
     */
    long add(long delta);

    /**
     * Builds a {@link MonotonicCounter}. Required: store, key. A null or bad value raises
     * {@link InvalidArgumentException}; setting an option twice or building without a required
     * one {@link IllegalStateException}. Building does no I/O.
     *
     * @since 0.1.0
     */
    final class Builder {
        /** Default attempts per call: enough for a handful of writers on one key. */
        static final int DEFAULT_MAX_ATTEMPTS = 16;

        static final int MAX_MAX_ATTEMPTS = 10_000;

        private @Nullable MetaStore store;
        private @Nullable MetaKey key;
        private @Nullable Long firstValue;
        private @Nullable Integer maxAttempts;

        private Builder() {}

        /** The store holding the counter record (a fenced view works too); never closed by the counter. */
        public Builder store(MetaStore store) {
            this.store = Options.setOnce(this.store, store, "store");
            return this;
        }

        /** The key of the counter record, such as {@code seq/table-ids}. */
        public Builder key(MetaKey key) {
            this.key = Options.setOnce(this.key, key, "key");
            return this;
        }

        /**
         * The first value handed out when the key is absent; 0 to {@code Long.MAX_VALUE - 1}.
         * Ignored once the record exists. Default: 1.
         */
        public Builder firstValue(long firstValue) {
            if (firstValue < 0 || firstValue == Long.MAX_VALUE) {
                throw new InvalidArgumentException(
                        "firstValue must be from 0 to " + (Long.MAX_VALUE - 1) + ", got " + firstValue);
            }
            this.firstValue = Options.setOnce(this.firstValue, firstValue, "firstValue");
            return this;
        }

        /** Compare-and-sets one call may make before it gives up; 1 to 10 000. Default: 16. */
        public Builder maxAttempts(int maxAttempts) {
            if (maxAttempts < 1 || maxAttempts > MAX_MAX_ATTEMPTS) {
                throw new InvalidArgumentException(
                        "maxAttempts must be from 1 to " + MAX_MAX_ATTEMPTS + ", got " + maxAttempts);
            }
            this.maxAttempts = Options.setOnce(this.maxAttempts, maxAttempts, "maxAttempts");
            return this;
        }

        /**
         * Builds the counter.
         *
         * @throws IllegalStateException if the store or the key is missing
         */
        public MonotonicCounter build() {
            return new CasCounter(
                    Options.required(store, "store"),
                    Options.required(key, "key"),
                    firstValue != null ? firstValue : 1,
                    maxAttempts != null ? maxAttempts : DEFAULT_MAX_ATTEMPTS);
        }
    }
}
