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
import io.lake.meta.lease.LeaseRecord;
import io.lake.meta.lock.FencedLock;
import io.lake.meta.lock.LockHold;
import io.lake.meta.testkit.PausePoints;
import io.lake.meta.testkit.lease.CountingMetaStore;
import io.lake.meta.testkit.FaultyStore;
import io.lake.meta.testkit.FaultyStore.Call;
import io.lake.meta.testkit.FaultyStore.Fault;
import io.lake.meta.testkit.lease.InFlightHooks;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** Part of {@link FencedLockSuite}: the hold's fenced view, renewals, loss, and many locks in one process. */
abstract class LockFencingContract extends LockAcquisitionContract {

    private static final MetaKey DATA = MetaKey.of("tbl/ns1/orders");

    @Nested
    class FencedView {

        @Test
        void view_writesUnderTheHold_andReadsPassThrough() throws Exception {
            LockHold hold = lock(node("node-a"), LOCK_KEY).acquire(Duration.ZERO);
            MetaStore view = hold.store();

            assertThat(view.create(DATA, value("v1"))).isEqualTo(WriteResult.applied());
            assertThat(view.update(DATA, value("stale"), value("v2")).isConflict())
                    .as("a failed precondition is an ordinary conflict").isTrue();
            assertThat(view.transact(List.of(Condition.holds(DATA, value("v1"))),
                    List.of(Mutation.create(MetaKey.of("tbl/ns1/customers"), value("c1")))).isApplied()).isTrue();
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
            assertThat(counting.plainWrites()).as("only the lock's own record writes go unguarded")
                    .allSatisfy(m -> assertThat(m.key()).isEqualTo(LOCK_KEY));
        }

        @Test
        void view_refusesWritesToTheLockKeyItself() throws Exception {
            LockHold hold = lock(node("node-a"), LOCK_KEY).acquire(Duration.ZERO);
            MetaValue record = lockBytes(LOCK_KEY);

            assertThatThrownBy(() -> hold.store().update(LOCK_KEY, record, value("mine")))
                    .isInstanceOf(InvalidArgumentException.class).hasMessageContaining("lease key");
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
            Future<WriteResult> staleWrite = thread().submit(() -> holdA.store().update(DATA, value("v0"), value("from-a")));
            pause.awaitArrival(); // A chose its guard; now A is paused with the request in flight
            for (Duration t = Duration.ZERO; t.compareTo(LEASE.plus(RENEW)) < 0; t = t.plus(RENEW)) {
                elapse(RENEW, b); // only B's time runs
            }
            LockHold holdB = lockB.acquire(Duration.ZERO);
            assertThat(holdB.epoch()).isEqualTo(2);
            assertThat(holdB.store().update(DATA, value("v0"), value("from-b")).isApplied()).isTrue();
            MetaValue recordOfB = lockBytes(LOCK_KEY);
            assertThat(holdA.isHeld()).as("A's own ticker has not moved: it still believes it holds the lock").isTrue();

            pause.release();

            assertThatThrownBy(staleWrite::get).isInstanceOf(ExecutionException.class)
                    .cause().isInstanceOf(FencedException.class).hasMessageContaining("epoch 1");
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
            MonotonicCounter ids = MonotonicCounter.builder().store(hold.store()).key(MetaKey.of("seq/orders")).build();
            assertThat(ids.next()).isEqualTo(1);

            hold.release();

            assertThatThrownBy(ids::next).isInstanceOf(FencedException.class);
            assertThat(MonotonicCounter.builder().store(store).key(MetaKey.of("seq/orders")).build().next())
                    .as("the refused call took nothing").isEqualTo(2);
        }
    }

    @Nested
    class RenewalAndLoss {

        @Test
        void backgroundRenewals_keepTheHoldPastItsLease_inTheSameEpoch() throws Exception {
            Node a = node("node-a");
            LockHold hold = lock(a, LOCK_KEY).acquire(Duration.ZERO);

            for (int i = 0; i < 5; i++) {
                elapse(RENEW, a);
            }

            assertThat(hold.isHeld()).isTrue();
            LeaseRecord record = lockRecord(LOCK_KEY);
            assertThat(record.epoch()).isEqualTo(1);
            assertThat(record.expiresAtMillis()).isEqualTo(START_MILLIS + 5 * RENEW.toMillis() + LEASE.toMillis());
            assertThat(hold.store().create(DATA, value("v1")).isApplied()).isTrue();
        }

        @Test
        void renew_byHand_extendsTheHold() throws Exception {
            Node a = node("node-a");
            LockHold hold = lock(a, LOCK_KEY).acquire(Duration.ZERO);
            a.ticker.advance(RENEW); // time passes, but no background renewal runs
            wall.advance(RENEW);

            assertThat(hold.renew()).isTrue();

            assertThat(lockRecord(LOCK_KEY).expiresAtMillis()).isEqualTo(START_MILLIS + RENEW.toMillis() + LEASE.toMillis());
            a.ticker.advance(LEASE.minus(Duration.ofMillis(1)));
            assertThat(hold.isHeld()).as("the deadline counts from the renewal").isTrue();
            a.ticker.advance(Duration.ofMillis(1));
            assertThat(hold.isHeld()).isFalse();
            assertThat(hold.renew()).as("an ended hold is never renewed").isFalse();
            assertThat(lockRecord(LOCK_KEY).expiresAtMillis()).isEqualTo(START_MILLIS + RENEW.toMillis() + LEASE.toMillis());
        }

        /**
         * The store fails every renewal: the hold ends at its local deadline (its view refuses), the
         * next renewal announces the loss, and the lock never re-acquires on its own.
         */
        @Test
        void holdWhoseRenewalsFail_endsAtItsDeadline_andIsNeverReacquiredInTheBackground() throws Exception {
            Node a = node("node-a");
            LossEvents losses = new LossEvents();
            CountingMetaStore counting = new CountingMetaStore(store);
            FaultyStore failing = FaultyStore.over(counting);
            FencedLock lock = lock(a, LOCK_KEY, failing, b -> b.listener(losses));
            LockHold hold = lock.acquire(Duration.ZERO);
            MetaValue record = lockBytes(LOCK_KEY);
            failing.failEvery(Call.GET, Fault.UNAVAILABLE);

            elapse(RENEW, a);
            elapse(RENEW, a);
            elapse(RENEW, a);
            assertThat(hold.isHeld()).isTrue();
            elapse(Duration.ofSeconds(1), a); // 10 s: the deadline
            assertThat(hold.isHeld()).isFalse();
            assertThatThrownBy(() -> hold.store().create(DATA, value("late"))).isInstanceOf(FencedException.class);
            int writesBefore = counting.plainWrites().size();
            elapse(RENEW, a); // the next renewal notices

            assertThat(losses.events()).containsExactly("lost 1");
            failing.heal();
            elapse(RENEW, a);
            elapse(RENEW, a);
            assertThat(counting.plainWrites()).as("no background write after the loss").hasSize(writesBefore);
            assertThat(lockBytes(LOCK_KEY)).isEqualTo(record);
            assertThat(lock.currentHold()).isEmpty();
            assertThat(store.get(DATA)).isEmpty();
        }

        @Test
        void holdTakenOverWhilePaused_isLostAtTheNextRenewal_andTheNewHoldersRecordStays() throws Exception {
            Node a = node("node-a");
            Node b = node("node-b");
            LossEvents losses = new LossEvents();
            LockHold holdA = lock(a, LOCK_KEY, store, x -> x.listener(losses)).acquire(Duration.ZERO);
            for (int i = 0; i < 4; i++) {
                elapse(RENEW, b); // a is paused past its lease
            }
            lock(b, LOCK_KEY).acquire(Duration.ZERO);

            elapse(RENEW, a, b); // a wakes up: its renewal finds b's record

            assertThat(losses.events()).containsExactly("lost 1");
            assertThat(holdA.isHeld()).isFalse();
            LeaseRecord record = lockRecord(LOCK_KEY);
            assertThat(record.holder()).contains("node-b");
            assertThat(record.epoch()).isEqualTo(2);
        }

        @Test
        void releasedHold_isNotReportedAsLost() throws Exception {
            LossEvents losses = new LossEvents();
            FencedLock lock = lock(node("node-a"), LOCK_KEY, store, b -> b.listener(losses));

            lock.acquire(Duration.ZERO).release();

            assertThat(losses.events()).isEmpty();
        }

        @Test
        void failingListener_doesNotStopTheLock() throws Exception {
            Node a = node("node-a");
            Node b = node("node-b");
            LossEvents losses = new LossEvents();
            FencedLock lockA = lock(a, LOCK_KEY, store, x -> x.listener((hold, reason) -> {
                throw new IllegalStateException("listener bug");
            }));
            lockA.addListener(losses);
            LockHold first = lockA.acquire(Duration.ZERO);
            for (int i = 0; i < 4; i++) {
                elapse(RENEW, b);
            }
            lock(b, LOCK_KEY).acquire(Duration.ZERO).release();

            elapse(RENEW, a);

            assertThat(losses.events()).containsExactly("lost 1");
            assertThat(first.isHeld()).isFalse();
            assertThat(lockA.acquire(Duration.ZERO).epoch()).isEqualTo(3);
        }
    }

    @Nested
    class ManyResources {

        private static final int RESOURCES = 20;

        private MetaKey lockKey(int i) {
            return MetaKey.of("lock/tables/t" + i);
        }

        private MetaKey dataKey(int i) {
            return MetaKey.of("tbl/ns1/t" + i);
        }

        @Test
        void oneProcess_holdsLocksOnManyResources_eachWithItsOwnEpochAndView() throws Exception {
            Node a = node("node-a");
            List<LockHold> holds = new ArrayList<>();
            for (int i = 0; i < RESOURCES; i++) {
                holds.add(lock(a, lockKey(i)).acquire(Duration.ZERO));
            }
            for (int i = 0; i < RESOURCES; i++) {
                assertThat(holds.get(i).epoch()).isEqualTo(1);
                assertThat(holds.get(i).store().create(dataKey(i), value("v1")).isApplied()).isTrue();
            }

            for (int i = 0; i < 4; i++) {
                elapse(RENEW, a); // one scheduler renews them all, past the lease
            }

            for (int i = 0; i < RESOURCES; i++) {
                assertThat(holds.get(i).isHeld()).as("hold %d", i).isTrue();
                assertThat(lockRecord(lockKey(i)).expiresAtMillis())
                        .isEqualTo(START_MILLIS + 4 * RENEW.toMillis() + LEASE.toMillis());
                assertThat(holds.get(i).store().update(dataKey(i), value("v1"), value("v2")).isApplied()).isTrue();
            }
        }

        @Test
        void releasingOneResource_leavesTheOthersHeld() throws Exception {
            Node a = node("node-a");
            Node b = node("node-b");
            List<LockHold> holds = new ArrayList<>();
            for (int i = 0; i < RESOURCES; i++) {
                holds.add(lock(a, lockKey(i)).acquire(Duration.ZERO));
            }

            holds.get(7).release();
            LockHold taken = lock(b, lockKey(7)).acquire(Duration.ZERO);

            assertThat(taken.epoch()).isEqualTo(2);
            assertThatThrownBy(() -> holds.get(7).store().create(dataKey(7), value("a"))).isInstanceOf(FencedException.class);
            assertThat(taken.store().create(dataKey(7), value("b")).isApplied()).isTrue();
            for (int i = 0; i < RESOURCES; i++) {
                if (i != 7) {
                    assertThat(holds.get(i).isHeld()).isTrue();
                    assertThat(holds.get(i).store().create(dataKey(i), value("a")).isApplied()).isTrue();
                    assertThat(lockRecord(lockKey(i)).holder()).contains("node-a");
                }
            }
            assertThat(store.get(dataKey(7))).contains(value("b"));
        }
    }
}
