package io.lake.meta.testkit.maintenance;

import io.lake.meta.GuardedMutation;
import io.lake.meta.GuardedResult;
import io.lake.meta.KeyPrefix;
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
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Forwards to a store and counts every kind of read apart (pages with their prefixes, point
 * reads, batch reads) and every write, so a test can bound what a maintenance tick costs. Does not
 * close the store it wraps. Thread-safe.
 *
 * @since 0.1.0
 */
public final class ReadCountingStore extends ForwardingMetaStore {

    private final List<KeyPrefix> pages = new CopyOnWriteArrayList<>();
    private final List<MetaKey> pointReads = new CopyOnWriteArrayList<>();
    private final AtomicInteger batchReads = new AtomicInteger();
    private final AtomicInteger writes = new AtomicInteger();

    /** Counts the reads and writes that reach {@code delegate}. */
    public ReadCountingStore(MetaStore delegate) {
        super(delegate);
    }

    /** The prefix of every page read, in order. */
    public List<KeyPrefix> pages() {
        return List.copyOf(pages);
    }

    /** Every key read with {@code get}, in order. */
    public List<MetaKey> pointReads() {
        return List.copyOf(pointReads);
    }

    /** Batch reads ({@code getAll}) that reached the store. */
    public int batchReads() {
        return batchReads.get();
    }

    /** Conditional writes, guarded writes and transactions that reached the store. */
    public int writes() {
        return writes.get();
    }

    /** Forgets everything counted so far. */
    public void reset() {
        pages.clear();
        pointReads.clear();
        batchReads.set(0);
        writes.set(0);
    }

    @Override
    public Optional<MetaValue> get(MetaKey key) {
        pointReads.add(key);
        return super.get(key);
    }

    @Override
    public Map<MetaKey, MetaValue> getAll(Collection<MetaKey> keys) {
        batchReads.incrementAndGet();
        return super.getAll(keys);
    }

    @Override
    public Page page(PageRequest request) {
        pages.add(request.prefix());
        return super.page(request);
    }

    @Override
    public WriteResult apply(Mutation mutation) {
        writes.incrementAndGet();
        return super.apply(mutation);
    }

    @Override
    public GuardedResult applyGuarded(GuardedMutation mutation) {
        writes.incrementAndGet();
        return super.applyGuarded(mutation);
    }

    @Override
    public TransactionResult transact(Transaction transaction) {
        writes.incrementAndGet();
        return super.transact(transaction);
    }

    @Override
    public void close() {
        // the wrapped store belongs to the test
    }
}
