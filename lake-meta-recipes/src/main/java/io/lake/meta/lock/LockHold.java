package io.lake.meta.lock;

import io.lake.meta.FencedException;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaStoreException;

/**
 * One acquisition of a {@link FencedLock}: its epoch, and the fenced view the holder writes
 * through. Each acquisition is a new hold with a higher epoch; a hold never comes back once it
 * ended (released, or lost: deadline passed, taken over).
 *
 * <pre>{@code
 * try (LockHold hold = lock.acquire(Duration.ofSeconds(5))) {
 *     MetaStore store = hold.store();            // every write is fenced by this hold
 *     store.update(key, current, next);          // FencedException once the hold is lost
 * }                                              // released
 * }</pre>
 *
 * <p>Thread-safe.
 *
 * @since 0.1.0
 */
public interface LockHold extends AutoCloseable {

    /** The lock's key: where its lease record lives. */
    MetaKey key();

    /** The hold's epoch: higher than every earlier hold's on this key, by any holder. A fencing token. */
    long epoch();

    /**
     * Whether the hold is still held: not released, not known lost, and its local deadline has not
     * passed. No I/O.
     */
    boolean isHeld();

    /**
     * A {@link MetaStore} whose every write (create, update, delete, guarded mutation,
     * transaction) applies only while the lock's record holds exactly this hold's lease bytes,
     * checked by the store atomically with the write. Once the hold ended, every write raises
     * {@link FencedException} and nothing is written. Reads pass through. Writing the lock's own
     * key through it is refused. Closing the view leaves the store and the hold open.
     */
    MetaStore store();

    /**
     * Renews the hold now, on the calling thread (a started lock also renews it in the
     * background). Never re-acquires: a hold that ended stays ended.
     *
     * @return whether the hold is still held afterwards
     * @throws MetaStoreException if the store failed; the hold stays valid until its deadline
     */
    boolean renew();

    /**
     * Releases the hold: it ends at once (its view refuses writes), then the lock record is
     * replaced with a vacant one that keeps the epoch, so the next acquisition, by anyone, is
     * one past it. Idempotent; a hold already lost is only marked released.
     *
     * @return whether a record of this hold was made vacant
     * @throws MetaStoreException if the store failed while vacating the record; the hold has
     *     ended anyway, and the record expires on its own
     */
    boolean release();

    /** {@link #release()}. */
    @Override
    void close();
}
