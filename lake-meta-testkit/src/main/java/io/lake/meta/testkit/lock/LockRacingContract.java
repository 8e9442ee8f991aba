package io.lake.meta.testkit.lock;

import static org.assertj.core.api.Assertions.assertThat;

import io.lake.meta.MetaKey;
import io.lake.meta.MetaValue;
import io.lake.meta.lock.FencedLock;
import io.lake.meta.lock.LockHold;
import io.lake.meta.testkit.ContractGroup;
import io.lake.meta.testkit.PausePoints;
import io.lake.meta.testkit.lease.InFlightHooks;
import java.util.Optional;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** Part of {@link FencedLockSuite}: racing. */
@ContractGroup("racing")
abstract class LockRacingContract extends LockAcquisitionContract {

    /** A read "absent" and is held before its create; B acquires; A's create then conflicts. */
    @Test
    void twoHoldersRacing_theOneHeldBetweenReadAndWriteLoses() throws Exception {
        PausePoints points = new PausePoints();
        FencedLock lockA = lock(node("node-a"), LOCK_KEY, new InFlightHooks(store, points), b -> b);
        FencedLock lockB = lock(node("node-b"), LOCK_KEY);

        PausePoints.Pause pause = points.arm(InFlightHooks.BEFORE_WRITE);
        Future<Optional<LockHold>> raceA = thread().submit(lockA::tryAcquire);
        pause.awaitArrival();
        LockHold holdB = lockB.tryAcquire().orElseThrow();
        pause.release();

        assertThat(raceA.get()).isEmpty();
        assertThat(holdB.epoch()).isEqualTo(1);
        assertThat(holdB.isHeld()).isTrue();
        assertThat(lockA.currentHold()).isEmpty();
        assertThat(lockRecord(LOCK_KEY).holder()).contains("node-b");
    }

    /**
     * Two holders on two threads try, write under the lock and release, as fast as they can. A
     * read-modify-write through a hold's view never conflicts: nobody else wrote in between.
     */
    @Test
    void twoHoldersRacing_onThreads_neverHoldAtOnce() throws Exception {
        MetaKey data = MetaKey.of("tbl/ns1/orders");
        store.create(data, value("0"));
        FencedLock lockA = lock(node("node-a"), LOCK_KEY);
        FencedLock lockB = lock(node("node-b"), LOCK_KEY);

        Future<Integer> a = thread().submit(() -> incrementUnderLock(lockA, data, 40));
        Future<Integer> b = thread().submit(() -> incrementUnderLock(lockB, data, 40));
        int held = a.get() + b.get();

        assertThat(held).as("holds won").isPositive();
        assertThat(store.get(data)).contains(value(Integer.toString(held)));
        assertThat(lockRecord(LOCK_KEY).epoch()).as("one epoch per hold").isEqualTo(held);
    }

    private int incrementUnderLock(FencedLock lock, MetaKey data, int attempts) {
        int held = 0;
        for (int i = 0; i < attempts; i++) {
            Optional<LockHold> maybe = lock.tryAcquire();
            if (maybe.isEmpty()) {
                continue;
            }
            try (LockHold hold = maybe.get()) {
                MetaValue current = hold.store().get(data).orElseThrow();
                MetaValue next = value(Integer.toString(Integer.parseInt(current.asUtf8()) + 1));
                assertThat(hold.store().update(data, current, next).isApplied())
                        .as("a write under the lock met a write of the other holder")
                        .isTrue();
                held++;
            }
        }
        return held;
    }
}
