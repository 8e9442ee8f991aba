package io.lake.meta.watch;

import io.lake.meta.KeyPrefix;

/**
 * A registered {@link io.lake.meta.MetaStore#watch watch}: its listener hears the prefix's
 * changes until {@link #close()}, or until the store is closed.
 *
 * @since 0.1.0
 */
public interface Watch extends AutoCloseable {

    /** The prefix this watch reports. */
    KeyPrefix prefix();

    /**
     * Stops delivery: no event is handed to the listener after this returns, except the one a
     * store thread may already be handing it (which may still start or finish). Does not wait for
     * the listener, so it may be called from the listener itself. Idempotent; never throws.
     */
    @Override
    void close();
}
