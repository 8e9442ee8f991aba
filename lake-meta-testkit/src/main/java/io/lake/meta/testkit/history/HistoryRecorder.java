package io.lake.meta.testkit.history;

import io.lake.meta.GuardedMutation;
import io.lake.meta.GuardedResult;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaStoreException;
import io.lake.meta.MetaValue;
import io.lake.meta.Mutation;
import io.lake.meta.OutcomeUnknownException;
import io.lake.meta.Page;
import io.lake.meta.PageRequest;
import io.lake.meta.Transaction;
import io.lake.meta.TransactionResult;
import io.lake.meta.WriteResult;
import io.lake.meta.spi.ForwardingMetaStore;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
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
 * call changed nothing. Exceptions are rethrown to the caller.
 *
 * <p>{@code transact} is recorded as one operation. {@code getAll} is recorded as one
 * {@code get} per key that was asked, all with the batch's time span: the contract reads each key
 * linearizably but not the batch as one snapshot. Pages are forwarded unrecorded by
 * {@link #recording}; {@link #recordingWithPages} also records first pages (no token), for stores
 * that read a page from one snapshot. Thread-safe.
 *
 * @since 0.1.0
 */
public final class HistoryRecorder {

    private final AtomicLong clock = new AtomicLong();
    private final List<Operation> operations = new ArrayList<>();

    /**
     * A view of {@code store} that records every {@code get}, {@code apply} and
     * {@code applyGuarded}. Closing the view does not close {@code store}.
     */
    public MetaStore recording(MetaStore store) {
        return new RecordingStore(store, false);
    }

    /**
     * Like {@link #recording}, and also records every first page (a request without a token) as
     * one read of the prefix: only for stores that read a page from one snapshot (the model,
     * RocksDB); a page across DynamoDB shards is not one snapshot.
     */
    public MetaStore recordingWithPages(MetaStore store) {
        return new RecordingStore(store, true);
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

    /** A batch read: one get per key asked, each answered by the batch, over the batch's span. */
    private Map<MetaKey, MetaValue> recordBatch(List<MetaKey> keys, Supplier<Map<MetaKey, MetaValue>> invocation) {
        long invokedAt = clock.incrementAndGet();
        Map<MetaKey, MetaValue> answer;
        try {
            answer = invocation.get();
        } catch (RuntimeException e) {
            long answeredAt = clock.incrementAndGet();
            addAll(keys, key -> outcomeOf(e), invokedAt, answeredAt);
            throw e;
        }
        long answeredAt = clock.incrementAndGet();
        addAll(keys, key -> new Outcome.Read(Optional.ofNullable(answer.get(key))), invokedAt, answeredAt);
        return answer;
    }

    private void addAll(List<MetaKey> keys, Function<MetaKey, Outcome> outcomeOf, long invokedAt, long answeredAt) {
        String client = Thread.currentThread().getName();
        synchronized (this) {
            for (MetaKey key : keys) {
                operations.add(new Operation(
                        operations.size(), client, new Call.Get(key), outcomeOf.apply(key), invokedAt, answeredAt));
            }
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

        private final boolean pages;

        RecordingStore(MetaStore delegate, boolean pages) {
            super(delegate);
            this.pages = pages;
        }

        @Override
        public Map<MetaKey, MetaValue> getAll(Collection<MetaKey> keys) {
            if (keys == null || keys.stream().anyMatch(Objects::isNull)) {
                return super.getAll(keys); // the store refuses it; nothing to record
            }
            List<MetaKey> asked = List.copyOf(keys);
            return recordBatch(asked, () -> super.getAll(asked));
        }

        @Override
        public TransactionResult transact(Transaction transaction) {
            if (transaction == null) {
                return super.transact(transaction); // the store refuses it; nothing to record
            }
            return record(new Call.Transact(transaction), () -> super.transact(transaction), Outcome.Transacted::new);
        }

        @Override
        public Page page(PageRequest request) {
            if (!pages || request == null || request.token().isPresent()) {
                return super.page(request);
            }
            return record(
                    new Call.FirstPage(request.prefix(), request.limit()),
                    () -> super.page(request),
                    page -> new Outcome.Paged(page.entries(), page.hasMore()));
        }

        @Override
        public Optional<MetaValue> get(MetaKey key) {
            if (key == null) {
                return super.get(key); // the store refuses it; nothing to record
            }
            return record(new Call.Get(key), () -> super.get(key), Outcome.Read::new);
        }

        @Override
        public WriteResult apply(Mutation mutation) {
            if (mutation == null) {
                return super.apply(mutation); // the store refuses it; nothing to record
            }
            return record(new Call.Write(mutation), () -> super.apply(mutation), Outcome.Written::new);
        }

        @Override
        public GuardedResult applyGuarded(GuardedMutation mutation) {
            if (mutation == null) {
                return super.applyGuarded(mutation); // the store refuses it; nothing to record
            }
            return record(new Call.Guarded(mutation), () -> super.applyGuarded(mutation), Outcome.GuardedWritten::new);
        }

        /** The recorder does not own the store it records. */
        @Override
        public void close() {}
    }
}
