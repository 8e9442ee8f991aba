package io.lake.meta.testkit;

import static org.assertj.core.api.Assertions.fail;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One operation of a race, run on its own thread. Timeouts here are safety nets: they fail the
 * test when something never happens, they never order events.
 */
final class Racer<T> {

    static final Duration SAFETY_TIMEOUT = PausePoints.DEFAULT_SAFETY_TIMEOUT;

    private final String name;
    private final FutureTask<T> task;
    private final Thread thread;
    private final Duration timeout;

    private Racer(String name, Callable<T> call, Duration timeout) {
        this.name = name;
        this.timeout = timeout;
        this.task = new FutureTask<>(call);
        this.thread = new Thread(task, "racer-" + name);
        this.thread.setDaemon(true);
    }

    /** Starts {@code call} on a new thread. */
    static <T> Racer<T> start(String name, Callable<T> call) {
        return start(name, call, SAFETY_TIMEOUT);
    }

    /** Starts {@code call} on a new thread; its waits fail after {@code timeout}. */
    static <T> Racer<T> start(String name, Callable<T> call, Duration timeout) {
        Racer<T> racer = new Racer<>(name, call, timeout);
        racer.thread.start();
        return racer;
    }

    boolean isDone() {
        return task.isDone();
    }

    /**
     * Waits until the racer has finished or its thread is parked (waiting for a lock, a monitor,
     * a latch or a future). A store that serializes commits parks a competing writer while
     * another commit is held at {@code COMMIT_CHECKED}; a store that lets commits interleave runs
     * it to completion instead. Either way the competitor got every chance to overtake before the
     * test releases the held commit.
     *
     * <p>A store that makes the competing writer spin, or block inside native code (where Java
     * reports the thread as runnable), never satisfies this wait: the test then fails after
     * its timeout with a message saying so.
     */
    @SuppressWarnings("ThreadPriorityCheck") // yields so the racer runs on a busy machine while this thread polls
    void awaitParkedOrDone() {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!task.isDone()) {
            Thread.State state = thread.getState();
            if (state == Thread.State.WAITING || state == Thread.State.BLOCKED || state == Thread.State.TIMED_WAITING) {
                return;
            }
            if (System.nanoTime() > deadline) {
                fail("racer '" + name + "' neither finished nor parked within " + timeout + " (state " + state
                        + "): a competing writer must wait for the held commit on a Java lock, monitor, latch or"
                        + " future, not spin or block in native code. A client blocked in a socket read counts as"
                        + " running: for DynamoDB, build the client with io.lake.meta.testkit.dynamo.ParkingHttpClient"
                        + " (lake-meta-testkit-dynamo). A backend that cannot make its writers wait so declares it:"
                        + " return Capabilities.all().without(Capability.RACE_HOOKS, \"<why>\") from its BackendFactory's"
                        + " capabilities()");
            }
            Thread.yield();
        }
    }

    /** The racer's result, waiting for it as long as the safety timeout allows. */
    T result() throws Exception {
        try {
            return task.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            thread.interrupt();
            throw new AssertionError("racer '" + name + "' did not finish within " + timeout, e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof Exception) {
                throw (Exception) e.getCause();
            }
            throw e;
        }
    }
}
