package io.lake.meta.testkit.history;

import io.lake.meta.GuardedMutation;
import io.lake.meta.GuardedResult;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaStoreException;
import io.lake.meta.MetaValue;
import io.lake.meta.Mutation;
import io.lake.meta.OutcomeUnknownException;
import io.lake.meta.WriteResult;
import io.lake.meta.spi.ForwardingMetaStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Records the calls that concurrent clients make on a store, with their answers, as a
 * {@link History} to check for linearizability.
 *
 * <pre>{@code
 * HistoryRecorder recorder = new HistoryRecorder();
 * MetaStore recorded = recorder.recording(store);   // share it between threads
 * ... threads call recorded.get / apply / applyGuarded ...
 * CheckResult result = new LinearizabilityChecker().check(recorder.history(), initialValues);
 * }</pre>
 *
 * <p>How answers are recorded: a returned value or result as it is; an
 * {@link OutcomeUnknownException}, or an exception outside the store's exception family, as
 * {@link Outcome.Unknown}; any other {@link MetaStoreException} (unavailable, closed, invalid
 * argument, write barrier, fenced) as {@link Outcome.NotApplied}, since the contract says such a
 * call changed nothing. Exceptions are rethrown to the caller. Pages are forwarded unrecorded.
 * Thread-safe.
 */
public final class HistoryRecorder {

    private final AtomicLong clock = new AtomicLong();
    private final List<Operation> operations = new ArrayList<>();

    /**
     * A view of {@code store} that records every {@code get}, {@code apply} and
     * {@code applyGuarded}. Closing the view does not close {@code store}.
     */
    public MetaStore recording(MetaStore store) {
        return new RecordingStore(store);
    }

    /** What was recorded so far, in the order the answers arrived. */
    public synchronized History history() {
        return new History(operations);
    }

    private <T> T record(Call call, Supplier<T> invocation, Function<T, Outcome> outcomeOf) {
        long invokedAt = clock.incrementAndGet();
        T answer;
        try {
            answer = invocation.get();
        } catch (RuntimeException e) {
            add(call, outcomeOf(e), invokedAt);
            throw e;
        }
        add(call, outcomeOf.apply(answer), invokedAt);
        return answer;
    }

    private void add(Call call, Outcome outcome, long invokedAt) {
        long answeredAt = clock.incrementAndGet();
        String client = Thread.currentThread().getName();
        synchronized (this) {
            operations.add(new Operation(operations.size(), client, call, outcome, invokedAt, answeredAt));
        }
    }

    /** What a failed call claims, by the contract's exception family. */
    static Outcome outcomeOf(RuntimeException e) {
        if (e instanceof OutcomeUnknownException) {
            return new Outcome.Unknown(e.getClass().getSimpleName());
        }
        if (e instanceof MetaStoreException) {
            return new Outcome.NotApplied(e.getClass().getSimpleName());
        }
        return new Outcome.Unknown("unexpected " + e);
    }

    private final class RecordingStore extends ForwardingMetaStore {

        RecordingStore(MetaStore delegate) {
            super(delegate);
        }

        @Override
        public Optional<MetaValue> get(MetaKey key) {
            if (key == null) {
                return super.get(null); // the store refuses it; nothing to record
            }
            return record(new Call.Get(key), () -> super.get(key), Outcome.Read::new);
        }

        @Override
        public WriteResult apply(Mutation mutation) {
            if (mutation == null) {
                return super.apply(null);
            }
            return record(new Call.Write(mutation), () -> super.apply(mutation), Outcome.Written::new);
        }

        @Override
        public GuardedResult applyGuarded(GuardedMutation mutation) {
            if (mutation == null) {
                return super.applyGuarded(null);
            }
            return record(new Call.Guarded(mutation), () -> super.applyGuarded(mutation), Outcome.GuardedWritten::new);
        }

        /** The recorder does not own the store it records. */
        @Override
        public void close() {
        }
    }
}
