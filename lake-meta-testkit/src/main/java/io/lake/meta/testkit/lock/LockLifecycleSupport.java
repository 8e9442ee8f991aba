package io.lake.meta.testkit.lock;

import io.lake.meta.MetaStore;
import io.lake.meta.Mutation;
import io.lake.meta.WriteResult;
import io.lake.meta.spi.ForwardingMetaStore;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/** Part of {@link FencedLockSuite}: what its groups share. */
abstract class LockLifecycleSupport extends LockManyResourcesContract {

    static final Duration SAFETY_TIMEOUT = Duration.ofSeconds(30);

    /** Tells when the first write after the acquisition (a renewal) reached the store, and on which thread. */
    static final class RenewalWatch extends ForwardingMetaStore {
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
