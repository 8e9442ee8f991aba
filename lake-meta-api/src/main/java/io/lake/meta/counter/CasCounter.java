package io.lake.meta.counter;

import io.lake.meta.InvalidArgumentException;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.Mutation;
import io.lake.meta.OutcomeUnknownException;
import io.lake.meta.WriteResult;
import java.util.Optional;
import java.util.UUID;

/** A {@link MonotonicCounter} by compare-and-set on a {@link CounterRecord}. Stateless between calls. */
final class CasCounter implements MonotonicCounter {

    private final MetaStore store;
    private final MetaKey key;
    private final long firstValue;
    private final int maxAttempts;

    CasCounter(MetaStore store, MetaKey key, long firstValue, int maxAttempts) {
        this.store = store;
        this.key = key;
        this.firstValue = firstValue;
        this.maxAttempts = maxAttempts;
    }

    @Override
    public MetaKey key() {
        return key;
    }

    @Override
    public long next() {
        return nextRange(1).first();
    }

    @Override
    public CounterRange nextRange(int count) {
        if (count < 1) {
            throw new InvalidArgumentException("count must be at least 1, got " + count);
        }
        return new CounterRange(claim(count), count);
    }

    @Override
    public long get() {
        Optional<MetaValue> current = store.get(key);
        return current.isPresent() ? CounterRecord.decode(key, current.get()).next() : firstValue;
    }

    @Override
    public long add(long delta) {
        if (delta < 1) {
            throw new InvalidArgumentException("delta must be at least 1 (the counter only moves forward), got " + delta);
        }
        return claim(delta) + delta;
    }

    /** Claims {@code count} consecutive values with one write; the first of them. */
    private long claim(long count) {
        Optional<MetaValue> current = store.get(key);
        Claim previous = null;
        for (int attempts = 0; ; attempts++) {
            // Claims are decided only by exact bytes, which are unique per write: if the record
            // holds the previous claim's bytes, that write applied and nobody has moved past it
            // (its answer was lost, or a client retry of it met its own write as a conflict).
            // Anything else, and the claimed values are never handed out (skipped if it applied).
            if (previous != null && current.isPresent() && current.get().equals(previous.bytes())) {
                return previous.first();
            }
            if (attempts == maxAttempts) {
                throw new CounterContentionException(key, attempts);
            }
            long next = current.isPresent() ? CounterRecord.decode(key, current.get()).next() : firstValue;
            if (next > Long.MAX_VALUE - count) {
                throw new CounterExhaustedException(key, next, count);
            }
            Claim claim = new Claim(next, new CounterRecord(next + count, UUID.randomUUID().toString()).encode());
            Mutation write = current.isPresent()
                    ? Mutation.update(key, current.get(), claim.bytes())
                    : Mutation.create(key, claim.bytes());
            previous = claim;
            WriteResult result;
            try {
                result = store.apply(write);
            } catch (OutcomeUnknownException e) {
                current = store.get(key); // re-read and decide
                continue;
            }
            if (result.isApplied()) {
                return claim.first();
            }
            current = result.isCurrentKnown() ? result.currentValue() : store.get(key);
        }
    }

    @Override
    public String toString() {
        return "MonotonicCounter[" + key + ", firstValue=" + firstValue + ", maxAttempts=" + maxAttempts + "]";
    }

    /** The first value a write claims, and the exact bytes that write leaves when it applies. */
    private record Claim(long first, MetaValue bytes) {
    }
}
