package io.lake.meta.testkit.lock;

import static org.assertj.core.api.Assertions.assertThat;

import io.lake.meta.MetaKey;
import io.lake.meta.lock.FencedLock;
import io.lake.meta.lock.LockHold;
import io.lake.meta.testkit.InMemoryMetaStore;
import io.lake.meta.testkit.lease.ManualClock;
import io.lake.meta.testkit.lease.ManualTicker;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The lock's listener executor may refuse a delivery (a saturated pool, one shut down): the
 * refused events are dropped and logged, as for every recipe's listeners, and the lock goes on.
 * A refusal must never escape a lock call that did its work (the caller would lose the hold it
 * won), nor stop later deliveries.
 */
class LockListenerExecutorTest {

    private static final MetaKey KEY = MetaKey.of("lock/refusing-executor");
    private static final Duration LEASE = Duration.ofSeconds(9);

    private final InMemoryMetaStore store = InMemoryMetaStore.create();
    private final ManualClock wall = new ManualClock(1_767_225_600_000L);
    private final ManualTicker ticker = new ManualTicker();
    private final ManualScheduler scheduler = new ManualScheduler(ticker);

    @AfterEach
    void close() {
        store.close();
    }

    /** Refuses the first {@code refusals} tasks, then runs them on the calling thread. */
    private static Executor refusingFirst(int refusals) {
        AtomicInteger left = new AtomicInteger(refusals);
        return task -> {
            if (left.getAndDecrement() > 0) {
                throw new RejectedExecutionException("pool saturated");
            }
            task.run();
        };
    }

    private FencedLock lock(String holder, Executor listenerExecutor, List<String> heard) {
        FencedLock lock = FencedLock.builder()
                .store(store)
                .key(KEY)
                .holderId(holder)
                .leaseDuration(LEASE)
                .clock(wall)
                .ticker(ticker)
                .scheduler(scheduler)
                .listenerExecutor(listenerExecutor)
                .listener((hold, reason) -> heard.add("lost " + hold.epoch()))
                .build();
        lock.start();
        return lock;
    }

    @Test
    void aRefusedDelivery_doesNotEscapeTheAcquisition_thatWonTheHold() {
        List<String> heard = new CopyOnWriteArrayList<>();
        FencedLock a = lock("node-a", refusingFirst(1), heard);

        Optional<LockHold> hold = a.tryAcquire(); // the candidate's "gained 1" is refused

        assertThat(hold).as("the caller gets the hold it won").isPresent();
        assertThat(hold.get().epoch()).isEqualTo(1);
        a.close();
    }

    @Test
    void aRefusedDelivery_doesNotStopLaterDeliveries() {
        List<String> heard = new CopyOnWriteArrayList<>();
        FencedLock a = lock("node-a", refusingFirst(1), heard);
        try {
            a.tryAcquire(); // "gained 1" refused (and, today, escapes)
        } catch (RejectedExecutionException ignored) {
            // the test above pins the call; this one pins the deliveries after it
        }
        LockHold hold = a.currentHold().orElseThrow();

        // the hold's deadline passes: the next renewal ends it, and the listener must hear it
        ticker.advance(LEASE);
        wall.advance(LEASE);
        assertThat(hold.renew()).isFalse();

        assertThat(heard)
                .as("the lock listener heard the loss after one refused delivery")
                .containsExactly("lost 1");
        a.close();
    }
}
