package io.lake.meta.testkit.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.InvalidArgumentException;
import io.lake.meta.MetaValue;
import io.lake.meta.lease.CorruptLeaseRecordException;
import io.lake.meta.lease.LeaseRecord;
import io.lake.meta.lock.FencedLock;
import io.lake.meta.lock.LockHold;
import io.lake.meta.lock.LockTimeoutException;
import io.lake.meta.testkit.ContractGroup;
import io.lake.meta.testkit.lease.CountingMetaStore;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** Part of {@link FencedLockSuite}: acquiring. */
@ContractGroup("acquiring")
abstract class LockAcquisitionContract extends LeaseCandidateContract {

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

        Optional<LockHold> second =
                lock(node("node-b"), LOCK_KEY, counting, b -> b).tryAcquire();

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

        assertThatThrownBy(waiting::get)
                .isInstanceOf(ExecutionException.class)
                .cause()
                .isInstanceOf(LockTimeoutException.class)
                .hasMessageContaining("within PT5S")
                .hasMessageContaining("held by 'node-a' in epoch 1");
        assertThat(counting.reads())
                .as("one read per round: at 0, 1, 2, 3, 4 and 5 s")
                .isEqualTo(6);
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

        assertThatThrownBy(() -> lock.acquire(Duration.ZERO))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("already held");
        assertThatThrownBy(lock::tryAcquire).isInstanceOf(IllegalStateException.class);
        assertThat(lock(a, LOCK_KEY).tryAcquire())
                .as("a second lock object is a second holder")
                .isEmpty();
        assertThat(hold.isHeld()).isTrue();
    }

    @SuppressWarnings("NullAway") // hands null to non-null parameters on purpose: they must be refused
    @Test
    void acquire_nullOrNegativeTimeout_isInvalid_andNothingIsRead() {
        CountingMetaStore counting = new CountingMetaStore(store);
        FencedLock lock = lock(node("node-a"), LOCK_KEY, counting, b -> b);

        assertThatThrownBy(() -> lock.acquire(null)).isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> lock.acquire(Duration.ofMillis(-1)))
                .isInstanceOf(InvalidArgumentException.class)
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
