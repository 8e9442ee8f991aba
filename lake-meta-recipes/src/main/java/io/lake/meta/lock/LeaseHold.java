package io.lake.meta.lock;

import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.fenced.FencedMetaStore;
import io.lake.meta.lease.LeaseAuthority;
import io.lake.meta.lease.LeaseGuard;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One term of a {@link LeaseLock}'s candidate. Its view is fenced by the guards of its own epoch
 * only: the candidate leads in each epoch at most once, so once this term ended no later hold of
 * the same lock can lend it a guard.
 */
final class LeaseHold implements LockHold {

    private final LeaseLock lock;
    private final long epoch;
    private final FencedMetaStore view;
    /** Set once: released by the caller, or lost. */
    private final AtomicBoolean ended = new AtomicBoolean();

    private volatile boolean released;

    LeaseHold(LeaseLock lock, MetaStore store, long epoch) {
        this.lock = lock;
        this.epoch = epoch;
        this.view = FencedMetaStore.over(store, new Authority());
    }

    @Override
    public MetaKey key() {
        return lock.key();
    }

    @Override
    public long epoch() {
        return epoch;
    }

    @Override
    public boolean isHeld() {
        return guard().isPresent();
    }

    @Override
    public MetaStore store() {
        return view;
    }

    @Override
    public boolean renew() {
        return lock.renew(this);
    }

    @Override
    public boolean release() {
        return lock.release(this);
    }

    @Override
    public void close() {
        release();
    }

    boolean ended() {
        return ended.get();
    }

    boolean released() {
        return released;
    }

    /** Called under the lock's mutex. */
    void markReleased() {
        released = true;
        ended.set(true);
        lock.forget(this);
    }

    /** Returns whether this call ended the hold (it was neither released nor lost before). */
    boolean markLost() {
        return ended.compareAndSet(false, true);
    }

    private Optional<LeaseGuard> guard() {
        return ended.get() ? Optional.empty() : lock.guardOf(epoch);
    }

    @Override
    public String toString() {
        return "LockHold[" + lock.key() + ", epoch=" + epoch + (released ? ", released" : ended.get() ? ", lost" : "")
                + "]";
    }

    /** What the view is fenced by: this hold's epoch, while the hold has not ended. */
    private final class Authority implements LeaseAuthority {

        @Override
        public MetaKey leaseKey() {
            return lock.key();
        }

        @Override
        public Optional<LeaseGuard> currentGuard() {
            return guard();
        }

        @Override
        public void guardRejected(LeaseGuard guard) {
            lock.guardRejected(guard);
        }
    }
}
