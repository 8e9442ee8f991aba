package io.lake.meta.fenced;

import io.lake.meta.FencedException;
import io.lake.meta.GuardedMutation;
import io.lake.meta.GuardedResult;
import io.lake.meta.InvalidArgumentException;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.Mutation;
import io.lake.meta.Page;
import io.lake.meta.PageRequest;
import io.lake.meta.StoreClosedException;
import io.lake.meta.WriteResult;
import io.lake.meta.lease.LeaseAuthority;
import io.lake.meta.lease.LeaseGuard;
import java.util.Optional;

/**
 * A {@link MetaStore} whose every write is fenced by a lease: reads go to the delegate
 * unchanged; each create, update or delete is sent as a {@link GuardedMutation} expecting the
 * exact lease bytes of the freshest {@link LeaseGuard} at the moment of the call. A leader that
 * paused and was taken over therefore cannot write, however late its request arrives: the store
 * compares the lease bytes atomically with the write.
 *
 * <ul>
 *   <li>No valid guard (never led, deadline passed, taken over): {@link FencedException},
 *       nothing sent.</li>
 *   <li>Target is the lease key: {@link InvalidArgumentException}, nothing sent. The election
 *       writes the lease through the raw store.</li>
 *   <li>Guard rejected by the store: {@link FencedException}; the authority is told, so the
 *       election stops leading. One exception: when this authority's own renewal replaced the
 *       guard while the write was in flight (same epoch, new bytes), the write is re-sent with
 *       the new guard; a rejected guarded write changed nothing, so this is safe. A write
 *       whose term has ended (its "lost" announced) is never re-sent: the election leads in
 *       each epoch at most once.</li>
 *   <li>Target precondition failed: the ordinary conflict {@link WriteResult}.</li>
 * </ul>
 *
 * <p>Reads are not fenced: a deposed leader can still read, and must not act on a read
 * except through a fenced write. The election and this store must use the same backend.
 *
 * <p>Closing this store does not close the delegate or the authority (it owns neither); later
 * calls raise {@link StoreClosedException}. Thread-safe if the delegate is.
 */
public final class FencedMetaStore implements MetaStore {

    /** How often a write follows its own election's renewals before giving up. */
    private static final int MAX_RENEWAL_RACES = 3;

    private final MetaStore delegate;
    private final LeaseAuthority authority;
    private final MetaKey leaseKey;
    private volatile boolean closed;

    private FencedMetaStore(MetaStore delegate, LeaseAuthority authority) {
        this.delegate = notNull(delegate, "delegate store");
        this.authority = notNull(authority, "lease authority");
        this.leaseKey = notNull(authority.leaseKey(), "the authority's lease key");
    }

    /**
     * Fences writes to {@code delegate} with the guards {@code authority} publishes.
     *
     * @param delegate the store holding both the data and the lease; not closed by this store
     * @param authority usually the {@link io.lake.meta.lease.LeaderElection} campaigning on {@code delegate}
     * @throws InvalidArgumentException if an argument (or the authority's lease key) is null
     */
    public static FencedMetaStore over(MetaStore delegate, LeaseAuthority authority) {
        return new FencedMetaStore(delegate, authority);
    }

    /** The lease key this store's writes are fenced by. */
    public MetaKey leaseKey() {
        return leaseKey;
    }

    @Override
    public Optional<MetaValue> get(MetaKey key) {
        requireOpen();
        return delegate.get(key);
    }

    @Override
    public Page page(PageRequest request) {
        requireOpen();
        return delegate.page(request);
    }

    /**
     * Applies {@code mutation} guarded by the freshest lease guard.
     *
     * @return applied, or the target's conflict
     * @throws FencedException if no valid guard is held or the store rejected it; nothing written
     * @throws InvalidArgumentException if the mutation targets the lease key; nothing written
     */
    @Override
    public WriteResult apply(Mutation mutation) {
        requireOpen();
        if (mutation == null) {
            throw new InvalidArgumentException("mutation must not be null");
        }
        if (mutation.key().equals(leaseKey)) {
            throw new InvalidArgumentException("key '" + leaseKey + "' is the lease key this store is fenced by:"
                    + " the lease is written only by its election, never through the fenced store");
        }
        for (int attempt = 0; attempt < MAX_RENEWAL_RACES; attempt++) {
            LeaseGuard guard = authority.currentGuard().orElseThrow(() -> new FencedException(
                    "write to '" + mutation.key() + "' refused: this node holds no valid lease on '" + leaseKey
                    + "' (never acquired, local deadline passed, or taken over); nothing was written."
                    + " Campaign and write again once leading"));
            GuardedResult result = delegate.applyGuarded(new GuardedMutation(leaseKey, guard.leaseBytes(), mutation));
            switch (result.outcome()) {
                case APPLIED:
                    return WriteResult.applied();
                case TARGET_CONFLICT:
                    return result.targetResult().orElseThrow();
                case GUARD_REJECTED:
                    authority.guardRejected(guard);
                    Optional<LeaseGuard> fresh = authority.currentGuard();
                    if (fresh.isPresent() && fresh.get().epoch() == guard.epoch()
                            && !fresh.get().leaseBytes().equals(guard.leaseBytes())) {
                        // Our own renewal replaced the guard while this write was in flight. The same
                        // epoch is the same term: the election never leads again in an epoch it lost.
                        continue;
                    }
                    throw new FencedException("write to '" + mutation.key() + "' refused: the lease on '" + leaseKey
                            + "' no longer holds the bytes of this node's epoch " + guard.epoch()
                            + " (another node took over, or the lease was removed); nothing was written");
                default:
                    throw new IllegalStateException("unknown guarded outcome " + result.outcome());
            }
        }
        throw new FencedException("write to '" + mutation.key() + "' refused: the lease on '" + leaseKey
                + "' was renewed " + MAX_RENEWAL_RACES + " times while the write was in flight; nothing was written."
                + " Renew less often than writes take");
    }

    /**
     * Always refused: this store already guards every write with its lease, and the contract
     * checks one guard per mutation, so a second, caller-chosen guard cannot be combined with it.
     * Use {@link #apply(Mutation)}, or the raw store for writes that need another guard.
     *
     * @throws InvalidArgumentException always; nothing written
     */
    @Override
    public GuardedResult applyGuarded(GuardedMutation mutation) {
        requireOpen();
        throw new InvalidArgumentException("a fenced store guards every write with its lease on '" + leaseKey
                + "' and cannot add a second guard ('" + (mutation == null ? null : mutation.guardKey())
                + "'): pass the plain mutation to apply(...)");
    }

    /** Marks this store closed. Leaves the delegate and the authority open: this store owns neither. */
    @Override
    public void close() {
        closed = true;
    }

    private static <T> T notNull(T value, String name) {
        if (value == null) {
            throw new InvalidArgumentException(name + " must not be null");
        }
        return value;
    }

    private void requireOpen() {
        if (closed) {
            throw new StoreClosedException("fenced store over lease '" + leaseKey + "'");
        }
    }

    @Override
    public String toString() {
        return "FencedMetaStore[lease=" + leaseKey + ", delegate=" + delegate + "]";
    }
}
