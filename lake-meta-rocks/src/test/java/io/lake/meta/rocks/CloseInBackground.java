package io.lake.meta.rocks;

import io.lake.meta.MetaStore;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Closes a store on another thread. {@link #awaitDraining()} returns once close() has refused
 * new calls and is about to wait for the calls in flight.
 */
final class CloseInBackground {

    private final CompletableFuture<Void> done;
    private final CountDownLatch draining;

    private CloseInBackground(CompletableFuture<Void> done, CountDownLatch draining) {
        this.done = done;
        this.draining = draining;
    }

    /** {@code hooks} must be the store's hooks. */
    static CloseInBackground start(MetaStore store, TestHooks hooks) {
        CountDownLatch draining = hooks.signal(RacePoints.CLOSE_DRAINING, 1);
        return new CloseInBackground(CompletableFuture.runAsync(store::close), draining);
    }

    void awaitDraining() {
        PauseAt.await(draining, "close() to start draining");
    }

    boolean isDone() {
        return done.isDone();
    }

    void awaitDone() throws Exception {
        done.get(30, TimeUnit.SECONDS);
    }
}
