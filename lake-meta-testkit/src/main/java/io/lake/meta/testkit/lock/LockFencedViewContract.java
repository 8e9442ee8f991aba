package io.lake.meta.testkit.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.Condition;
import io.lake.meta.FencedException;
import io.lake.meta.InvalidArgumentException;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.Mutation;
import io.lake.meta.WriteResult;
import io.lake.meta.counter.MonotonicCounter;
import io.lake.meta.lock.FencedLock;
import io.lake.meta.lock.LockHold;
import io.lake.meta.testkit.ContractGroup;
import io.lake.meta.testkit.PausePoints;
import io.lake.meta.testkit.lease.CountingMetaStore;
import io.lake.meta.testkit.lease.InFlightHooks;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** Part of {@link FencedLockSuite}: fenced view. */
@ContractGroup("fenced view")
abstract class LockFencedViewContract extends LockEpochsContract {

    static final MetaKey DATA = MetaKey.of("tbl/ns1/orders");

    @Test
    void view_writesUnderTheHold_andReadsPassThrough() throws Exception {
        LockHold hold = lock(node("node-a"), LOCK_KEY).acquire(Duration.ZERO);
        MetaStore view = hold.store();

        assertThat(view.create(DATA, value("v1"))).isEqualTo(WriteResult.applied());
        assertThat(view.update(DATA, value("stale"), value("v2")).isConflict())
                .as("a failed precondition is an ordinary conflict")
                .isTrue();
        assertThat(view.transact(
                                List.of(Condition.holds(DATA, value("v1"))),
                                List.of(Mutation.create(MetaKey.of("tbl/ns1/customers"), value("c1"))))
                        .isApplied())
                .isTrue();
        assertThat(view.get(DATA)).contains(value("v1"));
        assertThat(hold.isHeld()).isTrue();
    }

    @Test
    void everyWriteThroughTheView_carriesTheHoldsExactLeaseBytes() throws Exception {
        CountingMetaStore counting = new CountingMetaStore(store);
        LockHold hold = lock(node("node-a"), LOCK_KEY, counting, b -> b).acquire(Duration.ZERO);

        hold.store().create(DATA, value("v1"));
        hold.store().delete(DATA, value("v1"));

        assertThat(counting.guardedWrites()).hasSize(2).allSatisfy(sent -> {
            assertThat(sent.guardKey()).isEqualTo(LOCK_KEY);
            assertThat(sent.expectedGuard()).isEqualTo(lockBytes(LOCK_KEY));
        });
        assertThat(counting.plainWrites())
                .as("only the lock's own record writes go unguarded")
                .allSatisfy(m -> assertThat(m.key()).isEqualTo(LOCK_KEY));
    }

    @Test
    void view_refusesWritesToTheLockKeyItself() throws Exception {
        LockHold hold = lock(node("node-a"), LOCK_KEY).acquire(Duration.ZERO);
        MetaValue record = lockBytes(LOCK_KEY);

        assertThatThrownBy(() -> hold.store().update(LOCK_KEY, record, value("mine")))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("lease key");
        assertThat(lockBytes(LOCK_KEY)).isEqualTo(record);
    }

    /**
     * A holds the lock and builds a write, then pauses with the request in flight until well
     * past its lease. B acquires and writes. When A's request reaches the store it is refused:
     * neither the data nor the lock record moves, and A hears that it lost the lock.
     */
    @Test
    void pausedHoldersWrite_isRefused_afterAnotherAcquired() throws Exception {
        Node a = node("node-a");
        Node b = node("node-b");
        PausePoints points = new PausePoints();
        LossEvents lossesA = new LossEvents();
        FencedLock lockA = lock(a, LOCK_KEY, new InFlightHooks(store, points), x -> x.listener(lossesA));
        FencedLock lockB = lock(b, LOCK_KEY);
        LockHold holdA = lockA.acquire(Duration.ZERO);
        assertThat(holdA.store().create(DATA, value("v0")).isApplied()).isTrue();

        PausePoints.Pause pause = points.arm(InFlightHooks.BEFORE_GUARDED_WRITE);
        Future<WriteResult> staleWrite =
                thread().submit(() -> holdA.store().update(DATA, value("v0"), value("from-a")));
        pause.awaitArrival(); // A chose its guard; now A is paused with the request in flight
        for (Duration t = Duration.ZERO; t.compareTo(LEASE.plus(RENEW)) < 0; t = t.plus(RENEW)) {
            elapse(RENEW, b); // only B's time runs
        }
        LockHold holdB = lockB.acquire(Duration.ZERO);
        assertThat(holdB.epoch()).isEqualTo(2);
        assertThat(holdB.store().update(DATA, value("v0"), value("from-b")).isApplied())
                .isTrue();
        MetaValue recordOfB = lockBytes(LOCK_KEY);
        assertThat(holdA.isHeld())
                .as("A's own ticker has not moved: it still believes it holds the lock")
                .isTrue();

        pause.release();

        assertThatThrownBy(staleWrite::get)
                .isInstanceOf(ExecutionException.class)
                .cause()
                .isInstanceOf(FencedException.class)
                .hasMessageContaining("epoch 1");
        assertThat(store.get(DATA)).contains(value("from-b"));
        assertThat(lockBytes(LOCK_KEY)).isEqualTo(recordOfB);
        assertThat(holdA.isHeld()).as("the refusal ends A's hold").isFalse();
        assertThat(lossesA.events()).containsExactly("lost 1");
        assertThat(lossesA.holds()).containsExactly(holdA);
        assertThatThrownBy(() -> holdA.store().create(MetaKey.of("tbl/ns1/other"), value("x")))
                .isInstanceOf(FencedException.class);
    }

    @Test
    void aCounterThroughTheView_stopsHandingOutValuesOnceTheHoldEnded() throws Exception {
        LockHold hold = lock(node("node-a"), LOCK_KEY).acquire(Duration.ZERO);
        MonotonicCounter ids = MonotonicCounter.builder()
                .store(hold.store())
                .key(MetaKey.of("seq/orders"))
                .build();
        assertThat(ids.next()).isEqualTo(1);

        hold.release();

        assertThatThrownBy(ids::next).isInstanceOf(FencedException.class);
        assertThat(MonotonicCounter.builder()
                        .store(store)
                        .key(MetaKey.of("seq/orders"))
                        .build()
                        .next())
                .as("the refused call took nothing")
                .isEqualTo(2);
    }
}
