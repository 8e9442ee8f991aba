package io.lake.meta.lock;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;
import org.jspecify.annotations.Nullable;

/**
 * One call of {@link FencedLock#acquire(Duration)} in progress: its deadline, the answer its
 * caller waits for, and what its rounds saw. Mutable fields are guarded by the lock's mutex.
 */
final class Acquisition {

    final Duration timeout;
    final long deadlineNanos;
    /** The hold, or empty when the deadline passed; exceptional when the acquisition failed. */
    final CompletableFuture<Optional<LockHold>> answer = new CompletableFuture<>();
    /** The scheduled next round, if any. */
    @Nullable
    ScheduledFuture<?> nextRound;
    /** What the last round saw, for the timeout's message. */
    String lastSeen = "no round ran";
    /** Whether a round's write lost its answer: it may have installed a record of ours. */
    boolean answerLost;

    /** Longer waits are capped here (about 146 years), so deadlines compare without overflow. */
    private static final long MAX_WAIT_NANOS = Long.MAX_VALUE / 2;

    Acquisition(Duration timeout, long startNanos) {
        this.timeout = timeout;
        long waitNanos = timeout.compareTo(Duration.ofNanos(MAX_WAIT_NANOS)) > 0 ? MAX_WAIT_NANOS : timeout.toNanos();
        // Ticker readings may wrap, like System.nanoTime(): only differences are compared.
        this.deadlineNanos = startNanos + waitNanos;
    }

    /** Nanoseconds left at ticker reading {@code nowNanos}; zero or less once the deadline passed. */
    long remainingAt(long nowNanos) {
        return deadlineNanos - nowNanos;
    }

    boolean isDone() {
        return answer.isDone();
    }

    void cancelNextRound() {
        if (nextRound != null) {
            nextRound.cancel(false);
            nextRound = null;
        }
    }
}
