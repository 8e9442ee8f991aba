package io.lake.meta.testkit.lease;

import io.lake.meta.MetaKey;
import io.lake.meta.MetaValue;
import io.lake.meta.WriteResult;
import io.lake.meta.fenced.FencedMetaStore;
import io.lake.meta.testkit.PausePoints;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * A fenced create on its own thread, held at {@link InFlightHooks#BEFORE_GUARDED_WRITE}: decided
 * under the guard of its moment, not yet sent. The fenced store must wrap {@link InFlightHooks}
 * over {@code points}. Close it to stop the thread.
 */
final class PausedWrite implements AutoCloseable {

    private final ExecutorService thread = Executors.newSingleThreadExecutor();
    private final PausePoints.Pause pause;
    private final Future<WriteResult> result;

    private PausedWrite(FencedMetaStore fenced, PausePoints points, MetaKey key, MetaValue value) {
        pause = points.arm(InFlightHooks.BEFORE_GUARDED_WRITE);
        try {
            result = thread.submit(() -> fenced.create(key, value));
            pause.awaitArrival();
        } catch (RuntimeException | Error e) {
            thread.shutdownNow();
            throw e;
        }
    }

    /** Starts the create of {@code key} and returns once it is held before its guarded write. */
    static PausedWrite create(FencedMetaStore fenced, PausePoints points, MetaKey key, MetaValue value) {
        return new PausedWrite(fenced, points, key, value);
    }

    /** Lets the write go on. */
    void release() {
        pause.release();
    }

    /** The write's answer; its failure wrapped in an {@link ExecutionException}. */
    WriteResult get() throws InterruptedException, ExecutionException {
        return result.get();
    }

    @Override
    public void close() {
        thread.shutdownNow();
    }
}
