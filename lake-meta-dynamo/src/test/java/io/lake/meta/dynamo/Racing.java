package io.lake.meta.dynamo;

import static org.assertj.core.api.Assertions.fail;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;

/**
 * One call of a race on its own thread, for the DynamoDB module's own race tests (the contract
 * suite has its own). With {@link ParkingHttpClient} a call waiting for the server parks its
 * thread, which {@link #awaitParkedOrDone()} recognises. Timeouts are safety nets, never order.
 */
final class Racing<T> {

    private static final Duration SAFETY = Duration.ofSeconds(30);

    private final FutureTask<T> task;
    private final Thread thread;

    private Racing(String name, Callable<T> call) {
        this.task = new FutureTask<>(call);
        this.thread = new Thread(task, "race-" + name);
        this.thread.setDaemon(true);
    }

    static <T> Racing<T> start(String name, Callable<T> call) {
        Racing<T> racing = new Racing<>(name, call);
        racing.thread.start();
        return racing;
    }

    /** Waits until the call finished or its thread is parked (waiting for the server's answer). */
    Racing<T> awaitParkedOrDone() {
        long deadline = System.nanoTime() + SAFETY.toNanos();
        while (!task.isDone()) {
            Thread.State state = thread.getState();
            if (state == Thread.State.WAITING || state == Thread.State.TIMED_WAITING || state == Thread.State.BLOCKED) {
                return this;
            }
            if (System.nanoTime() > deadline) {
                fail(thread.getName() + " neither finished nor parked within " + SAFETY);
            }
            Thread.onSpinWait();
        }
        return this;
    }

    boolean isDone() {
        return task.isDone();
    }

    T result() throws Exception {
        return task.get(SAFETY.toMillis(), TimeUnit.MILLISECONDS);
    }
}
