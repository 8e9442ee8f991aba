package io.lake.meta.testkit.lease;

import io.lake.meta.MetaStore;
import io.lake.meta.spi.RaceHooks;

/**
 * Stands for the network between a client and the store: calls {@link RaceHooks#reached} at a
 * named point before each write is forwarded, so a test using {@code PausePoints} can hold a
 * request that the client has already built (its guard already chosen) while the world moves on:
 * a GC pause or a slow network. Does not close the store it wraps.
 *
 * @since 0.1.0
 */
public final class InFlightHooks extends BeforeEachWrite {

    /** Reached before a plain mutation is forwarded. */
    public static final String BEFORE_WRITE = "lease-test.before-write";

    /** Reached before a guarded mutation is forwarded. */
    public static final String BEFORE_GUARDED_WRITE = "lease-test.before-guarded-write";

    private final RaceHooks hooks;

    /** Calls {@code hooks} before each write to {@code delegate} is sent. */
    public InFlightHooks(MetaStore delegate, RaceHooks hooks) {
        super(delegate);
        this.hooks = hooks;
    }

    @Override
    void beforeWrite(boolean guarded) {
        hooks.reached(guarded ? BEFORE_GUARDED_WRITE : BEFORE_WRITE);
    }
}
