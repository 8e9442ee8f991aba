package io.lake.meta.arguments;

import io.lake.meta.*;
import io.lake.meta.watch.Watch;
import io.lake.meta.watch.WatchListener;
import java.util.List;
import java.util.Optional;

/**
 * A store that holds nothing and accepts every write: every read is absent, every write applied,
 * every page empty. Enough for a recipe's valid call to succeed, so a reflective walk can tell that
 * the refusal of a null is about the null.
 */
public final class AcceptingMetaStore implements MetaStore {

    @Override
    public Optional<MetaValue> get(MetaKey key) {
        notNull(key, "key");
        return Optional.empty();
    }

    @Override
    public WriteResult apply(Mutation mutation) {
        notNull(mutation, "mutation");
        return WriteResult.applied();
    }

    @Override
    public TransactionResult transact(Transaction transaction) {
        notNull(transaction, "transaction");
        return TransactionResult.applied();
    }

    @Override
    public Page page(PageRequest request) {
        notNull(request, "request");
        return new Page(List.of(), Optional.empty(), PageCost.items(0));
    }

    @Override
    public Watch watch(KeyPrefix prefix, WatchListener listener) {
        notNull(prefix, "prefix");
        notNull(listener, "listener");
        return new Watch() {
            @Override
            public KeyPrefix prefix() {
                return prefix;
            }

            @Override
            public void close() {}
        };
    }

    @Override
    public void close() {}

    /** Refuses a null as every backend does: the contract's typed error, nothing read or written. */
    private static void notNull(Object value, String name) {
        if (value == null) {
            throw new InvalidArgumentException(name + " must not be null");
        }
    }
}
