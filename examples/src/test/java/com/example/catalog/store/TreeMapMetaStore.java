package com.example.catalog.store;

import io.lake.meta.Condition;
import io.lake.meta.Entry;
import io.lake.meta.InvalidArgumentException;
import io.lake.meta.KeyPrefix;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.Mutation;
import io.lake.meta.Page;
import io.lake.meta.PageCost;
import io.lake.meta.PageRequest;
import io.lake.meta.StoreClosedException;
import io.lake.meta.Transaction;
import io.lake.meta.TransactionFailure;
import io.lake.meta.TransactionResult;
import io.lake.meta.WriteResult;
import io.lake.meta.spi.PageCursor;
import io.lake.meta.spi.PageTokenCodec;
import io.lake.meta.spi.RaceHooks;
import io.lake.meta.spi.WatchRegistry;
import io.lake.meta.watch.Watch;
import io.lake.meta.watch.WatchListener;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A backend written from scratch on the public API, as a third party would: one lock, one map
 * ordered by the keys' unsigned UTF-8 bytes, the page-token codec of the SPI, the race hook
 * called inside every commit while the lock is held, and the SPI's {@link WatchRegistry} for
 * watches (the store sees its own commits, so it publishes each one under the lock, in order).
 */
final class TreeMapMetaStore implements MetaStore {

    private final ReentrantLock lock = new ReentrantLock();
    private final TreeMap<String, Entry> entries = new TreeMap<>(TreeMapMetaStore::byUtf8);
    private final PageTokenCodec tokens = new PageTokenCodec("example-treemap", 1);
    private final WatchRegistry watches = new WatchRegistry("TreeMapMetaStore");
    private final RaceHooks hooks;
    private boolean closed;

    TreeMapMetaStore(RaceHooks hooks) {
        this.hooks = hooks;
    }

    private static int byUtf8(String a, String b) {
        return java.util.Arrays.compareUnsigned(
                a.getBytes(java.nio.charset.StandardCharsets.UTF_8),
                b.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    @Override
    public Optional<MetaValue> get(MetaKey key) {
        required(key, "key");
        lock.lock();
        try {
            open();
            return current(key);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public WriteResult apply(Mutation mutation) {
        required(mutation, "mutation");
        lock.lock();
        try {
            open();
            Optional<MetaValue> current = current(mutation.key());
            if (!mutation.preconditionHolds(current)) {
                return WriteResult.conflict(current);
            }
            hooks.reached(RaceHooks.COMMIT_CHECKED);
            write(mutation);
            publish(List.of(mutation));
            return WriteResult.applied();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public TransactionResult transact(Transaction transaction) {
        required(transaction, "transaction");
        lock.lock();
        try {
            open();
            List<TransactionFailure> failures = new ArrayList<>();
            for (Condition condition : transaction.conditions()) {
                Optional<MetaValue> current = current(condition.key());
                if (!condition.isMet(current)) {
                    failures.add(TransactionFailure.found(condition.key(), current));
                }
            }
            for (Mutation mutation : transaction.mutations()) {
                Optional<MetaValue> current = current(mutation.key());
                if (!mutation.preconditionHolds(current)) {
                    failures.add(TransactionFailure.found(mutation.key(), current));
                }
            }
            if (!failures.isEmpty()) {
                return TransactionResult.notApplied(failures);
            }
            hooks.reached(RaceHooks.COMMIT_CHECKED);
            transaction.mutations().forEach(this::write);
            publish(transaction.mutations());
            return TransactionResult.applied();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public Page page(PageRequest request) {
        required(request, "request");
        lock.lock();
        try {
            open();
            KeyPrefix prefix = request.prefix();
            Optional<MetaKey> after =
                    request.token().flatMap(t -> tokens.decode(prefix, t).afterKey(prefix));
            Map<String, Entry> tail = after.isPresent()
                    ? entries.tailMap(after.get().toString(), false)
                    : entries.tailMap(prefix.toString(), true);
            Iterator<Entry> candidates = tail.values().stream()
                    .takeWhile(e -> prefix.contains(e.key()))
                    .iterator();
            List<Entry> page = new ArrayList<>();
            while (page.size() < request.limit() && candidates.hasNext()) {
                page.add(candidates.next());
            }
            boolean more = candidates.hasNext();
            Optional<String> next = more
                    ? Optional.of(tokens.encode(
                            prefix,
                            PageCursor.after(
                                    0, prefix, page.get(page.size() - 1).key())))
                    : Optional.empty();
            return new Page(page, next, PageCost.items(page.size() + (more ? 1 : 0)));
        } finally {
            lock.unlock();
        }
    }

    @Override
    public Watch watch(KeyPrefix prefix, WatchListener listener) {
        return watches.watch(this, prefix, listener); // checks its arguments, reads the contents through page()
    }

    @Override
    public void close() {
        lock.lock();
        try {
            closed = true;
        } finally {
            lock.unlock();
        }
        watches.close();
    }

    /** Called holding the lock, so watches hear commits in commit order. */
    private void publish(List<Mutation> written) {
        if (watches.hasWatches()) {
            watches.publish(WatchRegistry.changesOf(written));
        }
    }

    private Optional<MetaValue> current(MetaKey key) {
        return Optional.ofNullable(entries.get(key.toString())).map(Entry::value);
    }

    private void write(Mutation mutation) {
        Optional<MetaValue> value = mutation.newValue();
        if (value.isPresent()) {
            entries.put(mutation.key().toString(), new Entry(mutation.key(), value.get()));
        } else {
            entries.remove(mutation.key().toString());
        }
    }

    private void open() {
        if (closed) {
            throw new StoreClosedException("TreeMapMetaStore");
        }
    }

    private static void required(Object argument, String name) {
        if (argument == null) {
            throw new InvalidArgumentException(name + " must not be null");
        }
    }
}
