package io.lake.meta.fenced;

import io.lake.meta.Condition;
import io.lake.meta.FencedException;
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
import io.lake.meta.StoreClosedException;
import io.lake.meta.Transaction;
import io.lake.meta.TransactionResult;
import io.lake.meta.WriteResult;
import io.lake.meta.internal.Checks;
import io.lake.meta.lease.LeaseAuthority;
import io.lake.meta.lease.LeaseGuard;
import io.lake.meta.watch.Watch;
import io.lake.meta.watch.WatchListener;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * A {@link MetaStore} whose every write is fenced by a lease: reads go to the delegate
 * unchanged; each create, update, delete, guarded mutation or transaction is sent as a
 * transaction with one more condition: the lease key holds exactly the bytes of the freshest
 * {@link LeaseGuard} at the moment of the call. A leader that
 * paused and was taken over therefore cannot write, however late its request arrives: the store
 * compares the lease bytes atomically with the write.
 *
 * <ul>
 *   <li>No valid guard (never led, deadline passed, taken over): {@link FencedException},
 *       nothing sent.</li>
 *   <li>A write to, or a condition on, the lease key: {@link InvalidArgumentException}, nothing
 *       sent. The election writes the lease through the raw store.</li>
 *   <li>Guard rejected by the store: {@link FencedException}; the authority is told, so the
 *       election stops leading. One exception: when this authority's own renewal replaced the
 *       guard while the write was in flight (same epoch, new bytes), the write is re-sent with
 *       the new guard; a rejected guarded write changed nothing, so this is safe. A write
 *       whose term has ended (its "lost" announced) is never re-sent: the election leads in
 *       each epoch at most once.</li>
 *   <li>A caller's condition or precondition failed: the ordinary conflict {@link WriteResult}
 *       or {@link TransactionResult}; a guarded mutation's own guard failing is its ordinary
 *       guard rejection.</li>
 * </ul>
 *
 * <p>Reads are not fenced: a deposed leader can still read, and watch, and must not act on what
 * it reads except through a fenced write. The election and this store must use the same backend.
 *
 * <p>Closing this store does not close the delegate or the authority (it owns neither); it ends
 * the watches made through it, and later calls raise {@link StoreClosedException}. Thread-safe if
 * the delegate is.
 *
 * @since 0.1.0
 */
public final class FencedMetaStore implements MetaStore {

    /** How often a write follows its own election's renewals before giving up. */
    private static final int MAX_RENEWAL_RACES = 3;

    private final MetaStore delegate;
    private final LeaseAuthority authority;
    private final MetaKey leaseKey;
    /** The one term this view writes in, or empty: the authority's freshest guard, whatever its term. */
    private final OptionalLong pinnedEpoch;

    private final Set<Watch> watches = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;

    private FencedMetaStore(MetaStore delegate, LeaseAuthority authority, OptionalLong pinnedEpoch) {
        this.delegate = Checks.notNull(delegate, "delegate store");
        this.authority = Checks.notNull(authority, "lease authority");
        this.leaseKey = Checks.notNull(authority.leaseKey(), "the authority's lease key");
        this.pinnedEpoch = pinnedEpoch;
    }

    /**
     * Fences writes to {@code delegate} with the guards {@code authority} publishes.
     *
     * @param delegate the store holding both the data and the lease; not closed by this store
     * @param authority usually the {@link io.lake.meta.lease.LeaderElection} campaigning on {@code delegate}
     * @throws InvalidArgumentException if an argument (or the authority's lease key) is null
     */
    public static FencedMetaStore over(MetaStore delegate, LeaseAuthority authority) {
        return new FencedMetaStore(delegate, authority, OptionalLong.empty());
    }

    /**
     * A view of the same store whose writes are fenced by term {@code epoch} only: each write
     * still sends the freshest guard, but only a guard of that epoch (renewals within the term
     * are followed). Once that term ended, every write is refused with {@link FencedException},
     * even while this node leads again in a later term: work decided in term N never goes out
     * under the same node's term N+1. Use it for everything decided under one guard (an
     * operation begun in an epoch, a table maintained under one hold). Closing the view leaves
     * this store open.
     *
     * @param epoch the term to write in; usually {@code guard.epoch()} of the guard the work was decided under
     * @throws InvalidArgumentException if {@code epoch} is negative
     * @since 0.1.0
     */
    public FencedMetaStore pinnedTo(long epoch) {
        requireOpen();
        Checks.notNegative(epoch, "epoch");
        if (pinnedEpoch.isPresent() && pinnedEpoch.getAsLong() != epoch) {
            throw new InvalidArgumentException(
                    "this view is pinned to epoch " + pinnedEpoch.getAsLong() + "; it cannot write in epoch " + epoch);
        }
        return new FencedMetaStore(delegate, new PinnedAuthority(authority, epoch), OptionalLong.of(epoch));
    }

    /**
     * {@link #pinnedTo(long)} the term of the authority's current guard: decide and write in the
     * term you hold now.
     *
     * @throws FencedException if this node holds no valid guard; nothing is written
     * @since 0.1.0
     */
    public FencedMetaStore pinnedToCurrentTerm() {
        requireOpen();
        LeaseGuard guard = authority
                .currentGuard()
                .orElseThrow(() -> new FencedException("no term to pin to: this" + " node holds no valid lease on '"
                        + leaseKey + "'; nothing was written"));
        return pinnedTo(guard.epoch());
    }

    /**
     * The term this view is pinned to, or empty when it writes under whatever term the
     * authority's freshest guard belongs to.
     *
     * @since 0.1.0
     */
    public OptionalLong pinnedEpoch() {
        return pinnedEpoch;
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

    /** Watches the delegate: a read, so not fenced. Closing this store ends the watch. */
    @Override
    public Watch watch(KeyPrefix prefix, WatchListener listener) {
        requireOpen();
        OwnedWatch watch = new OwnedWatch(delegate.watch(prefix, listener), watches);
        watches.add(watch);
        if (closed) { // closed while the watch was being made: close() may have missed it
            watch.close();
            requireOpen();
        }
        return watch;
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
        Transaction single = Transaction.of(List.of(), List.of(Checks.notNull(mutation, "mutation")));
        requireLeaseUntouched(single);
        return fenced(describe(single), guard -> {
            GuardedResult result = delegate.applyGuarded(new GuardedMutation(leaseKey, guard.leaseBytes(), mutation));
            return result.outcome() == GuardedResult.Outcome.GUARD_REJECTED
                    ? Optional.empty()
                    : Optional.of(result.targetResult().orElseThrow());
        });
    }

    /**
     * Applies {@code transaction} with the freshest lease guard as one more condition, so it
     * applies only while this node's lease holds. The failures reported are the caller's own: a
     * failed lease is a {@link FencedException}, never a failure in the result. A guarded
     * mutation with a guard of the caller's own is such a transaction too (its guard is one more
     * condition), so {@link #applyGuarded} needs nothing of its own.
     *
     * @return applied, or not applied with every failed condition and mutation of {@code transaction}
     * @throws FencedException if no valid guard is held or the store rejected it; nothing written
     * @throws InvalidArgumentException if the transaction names the lease key or more keys than
     *     {@link #maxTransactionKeys()}; nothing written
     */
    @Override
    public TransactionResult transact(Transaction transaction) {
        requireOpen();
        requireLeaseUntouched(Checks.notNull(transaction, "transaction"));
        transaction.requireAtMostKeys(maxTransactionKeys(), toString());
        return fenced(describe(transaction), guard -> {
            TransactionResult result = delegate.transact(fencedBy(guard, transaction));
            return result.failureOf(leaseKey).isPresent() ? Optional.empty() : Optional.of(result);
        });
    }

    /**
     * Sends a write with the freshest guard until the store answers with the guard accepted.
     * {@code send} answers empty when the store rejected the guard (then nothing was written).
     */
    private <R> R fenced(String what, Function<LeaseGuard, Optional<R>> send) {
        for (int attempt = 0; attempt < MAX_RENEWAL_RACES; attempt++) {
            LeaseGuard guard = authority
                    .currentGuard()
                    .orElseThrow(() -> new FencedException(what + " refused: this node holds no valid lease on '"
                            + leaseKey + "'"
                            + (pinnedEpoch.isPresent()
                                    ? " in epoch " + pinnedEpoch.getAsLong() + ", the term this view is pinned to"
                                    : "")
                            + " (never acquired, local deadline passed, taken over, or a later term); nothing was written."
                            + " Campaign and write again once leading"));
            Optional<R> answer = send.apply(guard);
            if (answer.isPresent()) {
                return answer.get();
            }
            authority.guardRejected(guard);
            Optional<LeaseGuard> fresh = authority.currentGuard();
            if (fresh.isPresent()
                    && fresh.get().epoch() == guard.epoch()
                    && !fresh.get().leaseBytes().equals(guard.leaseBytes())) {
                // Our own renewal replaced the guard while this write was in flight. The same
                // epoch is the same term: the election never leads again in an epoch it lost.
                continue;
            }
            throw new FencedException(what + " refused: the lease on '" + leaseKey
                    + "' no longer holds the bytes of this node's epoch " + guard.epoch()
                    + " (another node took over, or the lease was removed); nothing was written");
        }
        throw new FencedException(what + " refused: the lease on '" + leaseKey
                + "' was renewed " + MAX_RENEWAL_RACES + " times while the write was in flight; nothing was written."
                + " Renew less often than writes take");
    }

    /** The delegate's: the lease condition's bytes count too, so a transaction at the limit is refused once fenced. */
    @Override
    public int maxTransactionBytes() {
        return delegate.maxTransactionBytes();
    }

    /** One key fewer than the delegate's: the lease is one more condition of every transaction. */
    @Override
    public int maxTransactionKeys() {
        return delegate.maxTransactionKeys() - 1;
    }

    private Transaction fencedBy(LeaseGuard guard, Transaction transaction) {
        List<Condition> conditions = new ArrayList<>(transaction.conditions().size() + 1);
        conditions.add(Condition.holds(leaseKey, guard.leaseBytes()));
        conditions.addAll(transaction.conditions());
        return Transaction.of(conditions, transaction.mutations());
    }

    private void requireLeaseUntouched(Transaction transaction) {
        boolean mutated = transaction.mutations().stream().anyMatch(m -> m.key().equals(leaseKey));
        boolean conditioned =
                transaction.conditions().stream().anyMatch(c -> c.key().equals(leaseKey));
        if (mutated) {
            throw new InvalidArgumentException("key '" + leaseKey + "' is the lease key this store is fenced by:"
                    + " the lease is written only by its election, never through the fenced store");
        }
        if (conditioned) {
            throw new InvalidArgumentException("key '" + leaseKey + "' is the lease key this store is fenced by:"
                    + " every write through it already requires this node's lease; drop the condition");
        }
    }

    private static String describe(Transaction transaction) {
        if (transaction.keyCount() == 1) {
            return "write to '" + transaction.mutations().get(0).key() + "'";
        }
        return "transaction on " + transaction.keyCount() + " keys (first write to '"
                + transaction.mutations().get(0).key() + "')";
    }

    /** Marks this store closed and ends its watches. Leaves the delegate and the authority open: this store owns neither. */
    @Override
    public void close() {
        closed = true;
        watches.forEach(Watch::close);
    }

    /** An authority's guards of one term only; rejections go to the authority. */
    private record PinnedAuthority(LeaseAuthority authority, long epoch) implements LeaseAuthority {

        @Override
        public MetaKey leaseKey() {
            return authority.leaseKey();
        }

        @Override
        public Optional<LeaseGuard> currentGuard() {
            return authority.currentGuard().filter(g -> g.epoch() == epoch);
        }

        @Override
        public void guardRejected(LeaseGuard guard) {
            authority.guardRejected(guard);
        }
    }

    /** A delegate's watch that this store closes with itself; forgets itself once closed. */
    private static final class OwnedWatch implements Watch {
        private final Watch inner;
        private final Set<Watch> owner;

        OwnedWatch(Watch inner, Set<Watch> owner) {
            this.inner = inner;
            this.owner = owner;
        }

        @Override
        public KeyPrefix prefix() {
            return inner.prefix();
        }

        @Override
        public void close() {
            owner.remove(this);
            inner.close();
        }

        @Override
        public String toString() {
            return inner.toString();
        }
    }

    private void requireOpen() {
        if (closed) {
            throw new StoreClosedException("fenced store over lease '" + leaseKey + "'");
        }
    }

    @Override
    public String toString() {
        return "FencedMetaStore[lease=" + leaseKey
                + (pinnedEpoch.isPresent() ? ", epoch=" + pinnedEpoch.getAsLong() : "") + ", delegate=" + delegate
                + "]";
    }
}
