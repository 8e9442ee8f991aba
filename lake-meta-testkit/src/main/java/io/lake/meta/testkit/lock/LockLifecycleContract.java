package io.lake.meta.testkit.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.FencedException;
import io.lake.meta.MetaKey;
import io.lake.meta.lock.FencedLock;
import io.lake.meta.lock.LockHold;
import io.lake.meta.testkit.ContractGroup;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Part of {@link FencedLockSuite}: lifecycle. */
@ContractGroup("lifecycle")
abstract class LockLifecycleContract extends LockLifecycleSupport {

    @Test
    void acquire_beforeStart_isIllegalState() {
        FencedLock lock = unstarted(node("node-a"), LOCK_KEY, store, b -> b);

        assertThat(lock.state()).isEqualTo(FencedLock.State.LATENT);
        assertThatThrownBy(() -> lock.acquire(Duration.ZERO))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("start()");
        assertThat(store.get(LOCK_KEY)).isEmpty();
    }

    @Test
    void start_twice_orAfterClose_isIllegalState_andCloseIsIdempotent() {
        FencedLock lock = lock(node("node-a"), LOCK_KEY);
        assertThat(lock.state()).isEqualTo(FencedLock.State.STARTED);

        assertThatThrownBy(lock::start)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("started");
        lock.close();
        lock.close();
        assertThat(lock.state()).isEqualTo(FencedLock.State.CLOSED);
        assertThatThrownBy(lock::start)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("closed");
        assertThatThrownBy(lock::tryAcquire)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("closed");
    }

    @Test
    void close_releasesTheHold_andLeavesTheStoreAndASuppliedSchedulerRunning() throws Exception {
        Node a = node("node-a");
        FencedLock lock = lock(a, LOCK_KEY);
        LockHold hold = lock.acquire(Duration.ZERO);

        lock.close();

        assertThat(hold.isHeld()).isFalse();
        assertThat(lockRecord(LOCK_KEY).isVacant()).isTrue();
        assertThatThrownBy(() -> hold.store().create(MetaKey.of("tbl/ns1/orders"), value("v")))
                .isInstanceOf(FencedException.class);
        assertThat(a.scheduler.isShutdown()).isFalse();
        assertThat(store.create(MetaKey.of("tbl/ns1/orders"), value("raw")).isApplied())
                .isTrue();
        assertThat(lock(node("node-b"), LOCK_KEY).tryAcquire().orElseThrow().epoch())
                .isEqualTo(2);
    }

    @Test
    void close_whileAnAcquisitionWaits_failsIt() throws Exception {
        Node b = node("node-b");
        assertThat(lock(node("node-a"), LOCK_KEY).tryAcquire()).isPresent();
        FencedLock lockB = lock(b, LOCK_KEY);
        Future<LockHold> waiting = thread().submit(() -> lockB.acquire(Duration.ofSeconds(30)));
        b.scheduler.awaitPendingOneShots(1);

        lockB.close();

        assertThatThrownBy(waiting::get)
                .isInstanceOf(ExecutionException.class)
                .cause()
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("closed while acquiring");
        assertThat(b.scheduler.pendingOneShots()).isZero();
        assertThat(lockRecord(LOCK_KEY).holder()).contains("node-a");
    }

    @Test
    void interruptedAcquisition_leavesNothingScheduledOrHeld() throws Exception {
        Node b = node("node-b");
        LockHold holdA = lock(node("node-a"), LOCK_KEY).tryAcquire().orElseThrow();
        FencedLock lockB = lock(b, LOCK_KEY);
        AtomicReference<Thread> waiter = new AtomicReference<>();
        Future<LockHold> waiting = thread().submit(() -> {
            waiter.set(Thread.currentThread());
            return lockB.acquire(Duration.ofSeconds(30));
        });
        b.scheduler.awaitPendingOneShots(1);

        Objects.requireNonNull(waiter.get()).interrupt(); // the acquisition is pending: its thread set it

        assertThatThrownBy(waiting::get)
                .isInstanceOf(ExecutionException.class)
                .cause()
                .isInstanceOf(InterruptedException.class);
        assertThat(b.scheduler.pendingOneShots()).isZero();
        holdA.release();
        elapse(RETRY, b);
        assertThat(lockRecord(LOCK_KEY).isVacant())
                .as("no round ran for the abandoned acquisition")
                .isTrue();
        assertThat(lockB.tryAcquire().orElseThrow().epoch()).isEqualTo(2);
    }

    /** Without a supplied scheduler the lock renews on a daemon thread it owns, and close stops it. */
    @Test
    void ownedScheduler_renewsOnADaemonThread_andCloseStopsIt() throws Exception {
        RenewalWatch watch = new RenewalWatch(store);
        FencedLock lock = FencedLock.builder()
                .store(watch)
                .key(LOCK_KEY)
                .holderId("node-a")
                .leaseDuration(Duration.ofSeconds(30))
                .renewInterval(Duration.ofMillis(1))
                .clock(wall)
                .build();
        try {
            lock.start();
            lock.acquire(Duration.ZERO);

            Thread renewer = watch.awaitRenewal();
            assertThat(renewer.getName()).isEqualTo("lake-meta-lock-" + LOCK_KEY);
            assertThat(renewer.isDaemon()).isTrue();
            lock.close();
            renewer.join(SAFETY_TIMEOUT.toMillis());
            assertThat(renewer.isAlive())
                    .as("the owned scheduler was shut down")
                    .isFalse();
        } finally {
            lock.close();
        }
    }
}
