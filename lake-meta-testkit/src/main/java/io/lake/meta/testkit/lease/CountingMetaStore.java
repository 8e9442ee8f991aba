package io.lake.meta.testkit.lease;

import io.lake.meta.GuardedMutation;
import io.lake.meta.GuardedResult;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.Mutation;
import io.lake.meta.Page;
import io.lake.meta.PageRequest;
import io.lake.meta.Transaction;
import io.lake.meta.TransactionResult;
import io.lake.meta.WriteResult;
import io.lake.meta.spi.ForwardingMetaStore;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Forwards everything to a store and records what reached it: every plain and every guarded
 * mutation and every transaction, in order, and how many reads. Does not close the store it wraps. Thread-safe.
 *
 * @since 0.1.0
 */
public final class CountingMetaStore extends ForwardingMetaStore {

    private final List<Mutation> plainWrites = new CopyOnWriteArrayList<>();
    private final List<GuardedMutation> guardedWrites = new CopyOnWriteArrayList<>();
    private final List<Transaction> transactions = new CopyOnWriteArrayList<>();
    private final AtomicInteger reads = new AtomicInteger();

    /** Counts the calls that reach {@code delegate}. */
    public CountingMetaStore(MetaStore delegate) {
        super(delegate);
    }

    /** Plain (unguarded) mutations that reached the store. */
    public List<Mutation> plainWrites() {
        return List.copyOf(plainWrites);
    }

    /** Guarded mutations that reached the store. */
    public List<GuardedMutation> guardedWrites() {
        return List.copyOf(guardedWrites);
    }

    /** Transactions that reached the store (guarded mutations sent as such are not among them). */
    public List<Transaction> transactions() {
        return List.copyOf(transactions);
    }

    /** Point reads and page reads that reached the store. */
    public int reads() {
        return reads.get();
    }

    @Override
    public Optional<MetaValue> get(MetaKey key) {
        reads.incrementAndGet();
        return super.get(key);
    }

    @Override
    public WriteResult apply(Mutation mutation) {
        plainWrites.add(mutation);
        return super.apply(mutation);
    }

    @Override
    public GuardedResult applyGuarded(GuardedMutation mutation) {
        guardedWrites.add(mutation);
        return super.applyGuarded(mutation);
    }

    @Override
    public TransactionResult transact(Transaction transaction) {
        transactions.add(transaction);
        return super.transact(transaction);
    }

    @Override
    public Page page(PageRequest request) {
        reads.incrementAndGet();
        return super.page(request);
    }

    @Override
    public void close() {
        // the wrapped store belongs to the test
    }
}
