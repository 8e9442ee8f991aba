package io.lake.meta.testkit.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.InvalidArgumentException;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaValue;
import io.lake.meta.lease.CorruptLeaseRecordException;
import io.lake.meta.lease.LeaseRecord;
import io.lake.meta.lock.FencedLock;
import io.lake.meta.lock.LockHold;
import io.lake.meta.lock.LockTimeoutException;
import io.lake.meta.testkit.PausePoints;
import io.lake.meta.testkit.lease.CountingMetaStore;
import io.lake.meta.testkit.lease.InFlightHooks;
import io.lake.meta.testkit.FaultyStore;
import io.lake.meta.testkit.FaultyStore.Call;
import io.lake.meta.testkit.FaultyStore.Fault;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/** Part of {@link FencedLockSuite}: acquiring, waiting, racing, and epochs across holds. */
abstract class LockAcquisitionContract extends LeaseCandidateContract {

    @Nested
    class Acquiring {

        @Test
        void acquire_freeLock_holdsEpochOne_andTheRecordNamesTheHolder() throws Exception {
            Node a = node("node-a");
            FencedLock lock = lock(a, LOCK_KEY);

            LockHold hold = lock.acquire(Duration.ZERO);

            assertThat(hold.epoch()).isEqualTo(1);
            assertThat(hold.key()).isEqualTo(LOCK_KEY);
            assertThat(hold.isHeld()).isTrue();
            assertThat(lock.currentHold()).contains(hold);
            LeaseRecord record = lockRecord(LOCK_KEY);
            assertThat(record.holder()).contains("node-a");
            assertThat(record.epoch()).isEqualTo(1);
            assertThat(record.expiresAtMillis()).isEqualTo(START_MILLIS + LEASE.toMillis());
        }

        @Test
        void tryAcquire_whileAnotherHolds_isEmpty_andWritesNothing() {
            assertThat(lock(node("node-a"), LOCK_KEY).tryAcquire()).isPresent();
            MetaValue before = lockBytes(LOCK_KEY);
            CountingMetaStore counting = new CountingMetaStore(store);

            Optional<LockHold> second = lock(node("node-b"), LOCK_KEY, counting, b -> b).tryAcquire();

            assertThat(second).isEmpty();
            assertThat(counting.plainWrites()).isEmpty();
            assertThat(lockBytes(LOCK_KEY)).isEqualTo(before);
        }

        @Test
        void acquire_whileAnotherHolds_retriesEveryRetryInterval_andTimesOutOnItsOwnTicker() throws Exception {
            Node a = node("node-a");
            Node b = node("node-b");
            assertThat(lock(a, LOCK_KEY).tryAcquire()).isPresent();
            CountingMetaStore counting = new CountingMetaStore(store);
            FencedLock lockB = lock(b, LOCK_KEY, counting, x -> x);

            Future<LockHold> waiting = thread().submit(() -> lockB.acquire(Duration.ofSeconds(5)));
            for (int step = 0; step < 5; step++) {
                b.scheduler.awaitPendingOneShots(1); // b's round is done and the next one scheduled
                assertThat(waiting).isNotDone();
                elapse(RETRY, a, b); // a keeps renewing; b retries
            }

            assertThatThrownBy(waiting::get).isInstanceOf(ExecutionException.class)
                    .cause().isInstanceOf(LockTimeoutException.class)
                    .hasMessageContaining("within PT5S").hasMessageContaining("held by 'node-a' in epoch 1");
            assertThat(counting.reads()).as("one read per round: at 0, 1, 2, 3, 4 and 5 s").isEqualTo(6);
            assertThat(counting.plainWrites()).isEmpty();
            assertThat(b.scheduler.pendingOneShots()).isZero();
            assertThat(lockB.currentHold()).isEmpty();
            assertThat(lockRecord(LOCK_KEY).holder()).contains("node-a");
        }

        @Test
        void acquire_waiting_getsTheLockOnceTheHolderReleases_inTheNextEpoch() throws Exception {
            Node a = node("node-a");
            Node b = node("node-b");
            LockHold holdA = lock(a, LOCK_KEY).tryAcquire().orElseThrow();
            FencedLock lockB = lock(b, LOCK_KEY);

            Future<LockHold> waiting = thread().submit(() -> lockB.acquire(Duration.ofSeconds(30)));
            b.scheduler.awaitPendingOneShots(1);
            assertThat(holdA.release()).isTrue();
            elapse(RETRY, a, b);

            LockHold holdB = waiting.get();
            assertThat(holdB.epoch()).isEqualTo(2);
            assertThat(lockRecord(LOCK_KEY).holder()).contains("node-b");
        }

        @Test
        void acquire_waiting_takesOverOnceTheHoldersLeaseExpiredByItsWallClock() throws Exception {
            Node a = node("node-a");
            Node b = node("node-b");
            assertThat(lock(a, LOCK_KEY).tryAcquire()).isPresent();
            FencedLock lockB = lock(b, LOCK_KEY);

            Future<LockHold> waiting = thread().submit(() -> lockB.acquire(Duration.ofSeconds(30)));
            Duration waited = Duration.ZERO;
            while (waited.compareTo(LEASE) < 0) {
                b.scheduler.awaitPendingOneShots(1);
                elapse(RETRY, b); // a is paused: it does not renew
                waited = waited.plus(RETRY);
            }

            assertThat(waiting.get().epoch()).isEqualTo(2);
            assertThat(lockRecord(LOCK_KEY).holder()).contains("node-b");
        }

        @Test
        void acquire_whileThisLockHolds_isIllegalState_andAnotherLockObjectJustWaits() throws Exception {
            Node a = node("node-a");
            FencedLock lock = lock(a, LOCK_KEY);
            LockHold hold = lock.acquire(Duration.ZERO);

            assertThatThrownBy(() -> lock.acquire(Duration.ZERO)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("already held");
            assertThatThrownBy(lock::tryAcquire).isInstanceOf(IllegalStateException.class);
            assertThat(lock(a, LOCK_KEY).tryAcquire()).as("a second lock object is a second holder").isEmpty();
            assertThat(hold.isHeld()).isTrue();
        }

        @SuppressWarnings("NullAway") // hands null to non-null parameters on purpose: they must be refused
        @Test
        void acquire_nullOrNegativeTimeout_isInvalid_andNothingIsRead() {
            CountingMetaStore counting = new CountingMetaStore(store);
            FencedLock lock = lock(node("node-a"), LOCK_KEY, counting, b -> b);

            assertThatThrownBy(() -> lock.acquire(null)).isInstanceOf(InvalidArgumentException.class);
            assertThatThrownBy(() -> lock.acquire(Duration.ofMillis(-1))).isInstanceOf(InvalidArgumentException.class)
                    .hasMessageContaining("timeout");
            assertThat(counting.reads()).isZero();
            assertThat(store.get(LOCK_KEY)).isEmpty();
        }

        @Test
        void acquire_overACorruptRecord_failsAtOnce_andLeavesItUnchanged() {
            MetaValue corrupt = value("{\"holder\":\"x\"}"); // a holder without an expiry
            store.create(LOCK_KEY, corrupt);
            FencedLock lock = lock(node("node-a"), LOCK_KEY);

            assertThatThrownBy(() -> lock.acquire(Duration.ofSeconds(30))).isInstanceOf(CorruptLeaseRecordException.class);
            assertThat(lockBytes(LOCK_KEY)).isEqualTo(corrupt);
        }
    }

    @Nested
    class Racing {

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
                            .as("a write under the lock met a write of the other holder").isTrue();
                    held++;
                }
            }
            return held;
        }
    }

    @Nested
    class LostAnswers {

        @Test
        void acquisitionWhoseAnswerWasLost_butApplied_isAdoptedByTheNextRound_inTheSameEpoch() throws Exception {
            Node a = node("node-a");
            FaultyStore network = FaultyStore.over(store);
            FencedLock lock = lock(a, LOCK_KEY, network, b -> b);
            network.failNext(Call.WRITE, Fault.ANSWER_LOST);

            Future<LockHold> acquiring = thread().submit(() -> lock.acquire(Duration.ofSeconds(30)));
            a.scheduler.awaitPendingOneShots(1);
            elapse(RETRY, a);

            LockHold hold = acquiring.get();
            assertThat(hold.epoch()).isEqualTo(1);
            assertThat(lockRecord(LOCK_KEY).epoch()).isEqualTo(1);
            assertThat(hold.store().create(MetaKey.of("tbl/ns1/orders"), value("v1")).isApplied()).isTrue();
        }

        @Test
        void tryAcquireWhoseAnswerWasLost_leavesNothingHeld_soAnotherHolderNeedNotWait() {
            FaultyStore network = FaultyStore.over(store);
            FencedLock lockA = lock(node("node-a"), LOCK_KEY, network, b -> b);
            network.failNext(Call.WRITE, Fault.ANSWER_LOST);

            assertThat(lockA.tryAcquire()).isEmpty();

            assertThat(lockRecord(LOCK_KEY).isVacant()).as("the write that did apply was released").isTrue();
            assertThat(lock(node("node-b"), LOCK_KEY).tryAcquire().orElseThrow().epoch()).isEqualTo(2);
        }

        @Test
        void acquisitionWhoseWriteNeverArrived_acquiresNormallyNextRound() throws Exception {
            Node a = node("node-a");
            FaultyStore network = FaultyStore.over(store);
            FencedLock lock = lock(a, LOCK_KEY, network, b -> b);
            network.failNext(Call.WRITE, Fault.NEVER_ARRIVED);

            Future<LockHold> acquiring = thread().submit(() -> lock.acquire(Duration.ofSeconds(30)));
            a.scheduler.awaitPendingOneShots(1);
            assertThat(store.get(LOCK_KEY)).isEmpty();
            elapse(RETRY, a);

            assertThat(acquiring.get().epoch()).isEqualTo(1);
        }
    }

    @Nested
    class Epochs {

        @Test
        void releaseThenReacquire_incrementsTheEpoch_andTheOldViewCanNoLongerWrite() throws Exception {
            MetaKey data = MetaKey.of("tbl/ns1/orders");
            FencedLock lockA = lock(node("node-a"), LOCK_KEY);
            FencedLock lockB = lock(node("node-b"), LOCK_KEY);
            LockHold first = lockA.acquire(Duration.ZERO);
            assertThat(first.store().create(data, value("v1")).isApplied()).isTrue();

            assertThat(first.release()).isTrue();
            LeaseRecord released = lockRecord(LOCK_KEY);
            assertThat(released.isVacant()).isTrue();
            assertThat(released.epoch()).as("a release keeps the epoch").isEqualTo(1);
            assertThat(first.isHeld()).isFalse();
            assertThat(first.release()).as("release is idempotent").isFalse();

            LockHold second = lockA.acquire(Duration.ZERO);
            assertThat(second.epoch()).isEqualTo(2);
            assertThatThrownBy(() -> first.store().update(data, value("v1"), value("stale")))
                    .isInstanceOf(io.lake.meta.FencedException.class);
            assertThat(second.store().update(data, value("v1"), value("v2")).isApplied()).isTrue();
            second.release();

            LockHold third = lockB.acquire(Duration.ZERO);
            assertThat(third.epoch()).as("another holder goes past every earlier epoch").isEqualTo(3);
            assertThatThrownBy(() -> second.store().update(data, value("v2"), value("stale")))
                    .isInstanceOf(io.lake.meta.FencedException.class);
            assertThat(store.get(data)).contains(value("v2"));
        }

        @Test
        void closeWithTryWithResources_releases() throws Exception {
            FencedLock lock = lock(node("node-a"), LOCK_KEY);
            LockHold kept;
            try (LockHold hold = lock.acquire(Duration.ZERO)) {
                kept = hold;
                assertThat(hold.isHeld()).isTrue();
            }
            assertThat(kept.isHeld()).isFalse();
            assertThat(lockRecord(LOCK_KEY).isVacant()).isTrue();
            assertThat(lock.currentHold()).isEmpty();
        }
    }
}
