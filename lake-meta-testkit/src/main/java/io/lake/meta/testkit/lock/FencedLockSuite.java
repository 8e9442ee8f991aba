package io.lake.meta.testkit.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.FencedException;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.Mutation;
import io.lake.meta.WriteResult;
import io.lake.meta.lock.FencedLock;
import io.lake.meta.lock.LockHold;
import io.lake.meta.spi.ForwardingMetaStore;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * The fenced-lock suite, written once. A backend runs it with one line, on its
 * {@link io.lake.meta.testkit.BackendFactory}:
 *
 * <pre>{@code
 * @Backend(MyBackend.class)
 * class MyStoreFencedLockTest extends FencedLockSuite {}
 * }</pre>
 *
 * <p>Groups, inherited so the backend's one class runs them all: {@code LeaseCandidateContract} (the
 * renewal-only round the lock renews with), {@code LockAcquisitionContract}
 * (acquiring, timeouts, races, lost answers, epochs), {@code LockFencingContract} (the hold's
 * fenced view, the paused holder, renewals and loss, many resources in one process) and the
 * lifecycle group below. Time is manual (a shared {@link io.lake.meta.testkit.lease.ManualClock},
 * one {@link io.lake.meta.testkit.lease.ManualTicker} and {@link ManualScheduler} per node), and
 * races are ordered with pause points, never sleeps.
 * @since 0.1.0
 */
public abstract class FencedLockSuite extends LockFencingContract {

    /** For backends: {@code @Backend(MyBackend.class) class MyStoreFencedLockTest extends FencedLockSuite {}}. */
    protected FencedLockSuite() {
    }

    private static final Duration SAFETY_TIMEOUT = Duration.ofSeconds(30);

    @Nested
    class Lifecycle {

        @Test
        void acquire_beforeStart_isIllegalState() {
            FencedLock lock = unstarted(node("node-a"), LOCK_KEY, store, b -> b);

            assertThat(lock.state()).isEqualTo(FencedLock.State.LATENT);
            assertThatThrownBy(() -> lock.acquire(Duration.ZERO)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("start()");
            assertThat(store.get(LOCK_KEY)).isEmpty();
        }

        @Test
        void start_twice_orAfterClose_isIllegalState_andCloseIsIdempotent() {
            FencedLock lock = lock(node("node-a"), LOCK_KEY);
            assertThat(lock.state()).isEqualTo(FencedLock.State.STARTED);

            assertThatThrownBy(lock::start).isInstanceOf(IllegalStateException.class).hasMessageContaining("started");
            lock.close();
            lock.close();
            assertThat(lock.state()).isEqualTo(FencedLock.State.CLOSED);
            assertThatThrownBy(lock::start).isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
            assertThatThrownBy(lock::tryAcquire).isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
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
            assertThat(store.create(MetaKey.of("tbl/ns1/orders"), value("raw")).isApplied()).isTrue();
            assertThat(lock(node("node-b"), LOCK_KEY).tryAcquire().orElseThrow().epoch()).isEqualTo(2);
        }

        @Test
        void close_whileAnAcquisitionWaits_failsIt() throws Exception {
            Node b = node("node-b");
            assertThat(lock(node("node-a"), LOCK_KEY).tryAcquire()).isPresent();
            FencedLock lockB = lock(b, LOCK_KEY);
            Future<LockHold> waiting = thread().submit(() -> lockB.acquire(Duration.ofSeconds(30)));
            b.scheduler.awaitPendingOneShots(1);

            lockB.close();

            assertThatThrownBy(waiting::get).isInstanceOf(ExecutionException.class)
                    .cause().isInstanceOf(IllegalStateException.class).hasMessageContaining("closed while acquiring");
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

            assertThatThrownBy(waiting::get).isInstanceOf(ExecutionException.class)
                    .cause().isInstanceOf(InterruptedException.class);
            assertThat(b.scheduler.pendingOneShots()).isZero();
            holdA.release();
            elapse(RETRY, b);
            assertThat(lockRecord(LOCK_KEY).isVacant()).as("no round ran for the abandoned acquisition").isTrue();
            assertThat(lockB.tryAcquire().orElseThrow().epoch()).isEqualTo(2);
        }

        /** Without a supplied scheduler the lock renews on a daemon thread it owns, and close stops it. */
        @Test
        void ownedScheduler_renewsOnADaemonThread_andCloseStopsIt() throws Exception {
            RenewalWatch watch = new RenewalWatch(store);
            FencedLock lock = FencedLock.builder().store(watch).key(LOCK_KEY).holderId("node-a")
                    .leaseDuration(Duration.ofSeconds(30)).renewInterval(Duration.ofMillis(1)).clock(wall).build();
            try {
                lock.start();
                lock.acquire(Duration.ZERO);

                Thread renewer = watch.awaitRenewal();
                assertThat(renewer.getName()).isEqualTo("lake-meta-lock-" + LOCK_KEY);
                assertThat(renewer.isDaemon()).isTrue();
                lock.close();
                renewer.join(SAFETY_TIMEOUT.toMillis());
                assertThat(renewer.isAlive()).as("the owned scheduler was shut down").isFalse();
            } finally {
                lock.close();
            }
        }
    }

    /** Tells when the first write after the acquisition (a renewal) reached the store, and on which thread. */
    private static final class RenewalWatch extends ForwardingMetaStore {
        private final CountDownLatch renewed = new CountDownLatch(1);
        private final AtomicReference<Thread> renewer = new AtomicReference<>();
        private volatile boolean acquired;

        RenewalWatch(MetaStore delegate) {
            super(delegate);
        }

        @Override
        public WriteResult apply(Mutation mutation) {
            WriteResult result = super.apply(mutation);
            if (acquired && renewer.compareAndSet(null, Thread.currentThread())) {
                renewed.countDown();
            }
            acquired = true;
            return result;
        }

        Thread awaitRenewal() throws InterruptedException {
            if (!renewed.await(SAFETY_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new AssertionError("no renewal within " + SAFETY_TIMEOUT);
            }
            return Objects.requireNonNull(renewer.get()); // set before renewed was counted down
        }

        @Override
        public void close() {
            // the wrapped store belongs to the test
        }
    }
}
