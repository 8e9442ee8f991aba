package io.lake.meta.spi;

import io.lake.meta.GuardedMutation;
import io.lake.meta.GuardedResult;
import io.lake.meta.InvalidArgumentException;
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
import io.lake.meta.watch.Watch;
import io.lake.meta.watch.WatchListener;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;

/**
 * For decorators: a {@link MetaStore} that forwards every call to a delegate, so a wrapper
 * (fault injection, counting, ownership of extra resources) overrides only what it changes.
 *
 * <p>{@link #get}, {@link #getAll}, {@link #apply}, {@link #applyGuarded}, {@link #transact(Transaction)},
 * {@link #maxTransactionKeys()}, {@link #maxTransactionBytes()}, {@link #page(PageRequest)}, {@link #watch} and
 * {@link #close()} forward to
 * {@link #delegate()}. The convenience methods ({@code create}, {@code update}, {@code delete},
 * {@code transact(conditions, mutations)}, {@code page(prefix, limit)}) are not forwarded: they
 * keep {@link MetaStore}'s defaults and so go through this store's own {@code apply},
 * {@code transact} and {@code page}, where a decorator sees them.
 *
 * <p>{@code close()} forwards too unless overridden: a decorator that does not own its
 * delegate must override it (usually with an empty body). Closing the delegate ends the watches
 * made through the decorator; a decorator that overrides {@code close()} and must end its watches
 * with it keeps and closes them itself. A watch sees every write that reaches the delegate,
 * including writes made around the decorator.
 *
 * <p>Optional capabilities such as {@link KeyFamilies} are not forwarded by implementing them here:
 * {@link KeyFamilies#of(MetaStore)} looks through a forwarding store to its delegate.
 *
 * @since 0.1.0
 */
public abstract class ForwardingMetaStore implements MetaStore {

    private final MetaStore delegate;

    /**
     * @param delegate the store every call is forwarded to
     * @throws InvalidArgumentException if {@code delegate} is null
     */
    protected ForwardingMetaStore(MetaStore delegate) {
        if (delegate == null) {
            throw new InvalidArgumentException(
                    "delegate must not be null: a forwarding store needs a store to forward to");
        }
        this.delegate = delegate;
    }

    /** The store every call is forwarded to. */
    protected MetaStore delegate() {
        return delegate;
    }

    @Override
    public Optional<MetaValue> get(MetaKey key) {
        return delegate().get(key);
    }

    @Override
    public Map<MetaKey, MetaValue> getAll(Collection<MetaKey> keys) {
        return delegate().getAll(keys);
    }

    @Override
    public WriteResult apply(Mutation mutation) {
        return delegate().apply(mutation);
    }

    @Override
    public GuardedResult applyGuarded(GuardedMutation mutation) {
        return delegate().applyGuarded(mutation);
    }

    @Override
    public TransactionResult transact(Transaction transaction) {
        return delegate().transact(transaction);
    }

    @Override
    public int maxTransactionKeys() {
        return delegate().maxTransactionKeys();
    }

    @Override
    public int maxTransactionBytes() {
        return delegate().maxTransactionBytes();
    }

    @Override
    public Page page(PageRequest request) {
        return delegate().page(request);
    }

    @Override
    public Watch watch(KeyPrefix prefix, WatchListener listener) {
        return delegate().watch(prefix, listener);
    }

    /** Closes the delegate. Override when the decorator does not own it. */
    @Override
    public void close() {
        delegate().close();
    }
}
