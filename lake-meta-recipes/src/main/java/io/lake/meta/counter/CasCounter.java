package io.lake.meta.counter;

import io.lake.meta.InvalidArgumentException;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaStoreException;
import io.lake.meta.MetaValue;
import io.lake.meta.Mutation;
import io.lake.meta.OutcomeUnknownException;
import io.lake.meta.WriteResult;
import java.util.Objects;
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
        return new CounterRange(claim(count, false), count);
    }

    @Override
    public long get() {
        Optional<MetaValue> current = store.get(key);
        return current.isPresent() ? CounterRecord.decode(key, current.get()).next() : firstValue;
    }

    @Override
    public long add(long delta) {
        if (delta < 1) {
            throw new InvalidArgumentException(
                    "delta must be at least 1 (the counter only moves forward), got " + delta);
        }
        return claim(delta, true) + delta;
    }

    /**
     * Claims {@code count} consecutive values with one write; the first of them.
     *
     * @param exactlyOnce for {@code add}: the counter must move once. After a lost answer, the same
     *     bytes are re-sent while the record still holds what they were written over, and anything
     *     else (another writer moved it: ours may have applied before) is an
     *     {@link OutcomeUnknownException}. Without it a new claim is made: the lost one's values
     *     are skipped at worst, never handed out twice.
     */
    private long claim(long count, boolean exactlyOnce) {
        Optional<MetaValue> current = store.get(key);
        Claim previous = null;
        Optional<MetaValue> previousOver = Optional.empty();
        OutcomeUnknownException lost = null;
        for (int attempts = 0; ; attempts++) {
            // Claims are decided only by exact bytes, which are unique per write: if the record
            // holds the previous claim's bytes, that write applied and nobody has moved past it
            // (its answer was lost, or a client retry of it met its own write as a conflict).
            // Anything else, and the claimed values are never handed out (skipped if it applied).
            if (previous != null && current.isPresent() && current.get().equals(previous.bytes())) {
                return previous.first();
            }
            if (attempts == maxAttempts) {
                if (exactlyOnce && lost != null) {
                    throw lost;
                }
                throw new CounterContentionException(key, attempts);
            }
            boolean resend = lost != null && current.equals(previousOver);
            if (exactlyOnce && lost != null && !resend) {
                throw lost; // another writer moved the counter since our lost write: it may have applied
            }
            Claim claim;
            if (resend && exactlyOnce) {
                // the same bytes (those of the write that lost its answer): if the lost write lands first,
                // this one meets it as its own
                claim = Objects.requireNonNull(previous);
            } else {
                long next = current.isPresent()
                        ? CounterRecord.decode(key, current.get()).next()
                        : firstValue;
                if (next > Long.MAX_VALUE - count) {
                    throw new CounterExhaustedException(key, next, count);
                }
                claim = new Claim(
                        next, new CounterRecord(next + count, UUID.randomUUID().toString()).encode());
            }
            Mutation write = current.isPresent()
                    ? Mutation.update(key, current.get(), claim.bytes())
                    : Mutation.create(key, claim.bytes());
            previous = claim;
            previousOver = current;
            WriteResult result;
            try {
                result = store.apply(write);
            } catch (OutcomeUnknownException e) {
                lost = e;
                current = exactlyOnce ? reread(e) : store.get(key); // re-read and decide
                continue;
            }
            if (result.isApplied()) {
                return claim.first();
            }
            current = result.isCurrentKnown() ? result.currentValue() : store.get(key);
        }
    }

    private Optional<MetaValue> reread(OutcomeUnknownException lost) {
        try {
            return store.get(key);
        } catch (MetaStoreException readFailure) {
            lost.addSuppressed(readFailure);
            throw lost; // the write may have applied: never "unavailable, nothing changed"
        }
    }

    @Override
    public String toString() {
        return "MonotonicCounter[" + key + ", firstValue=" + firstValue + ", maxAttempts=" + maxAttempts + "]";
    }

    /** The first value a write claims, and the exact bytes that write leaves when it applies. */
    private record Claim(long first, MetaValue bytes) {}
}
