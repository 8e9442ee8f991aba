package io.lake.meta.testkit.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.MetaKey;
import io.lake.meta.lease.LeaseRecord;
import io.lake.meta.lock.FencedLock;
import io.lake.meta.lock.LockHold;
import io.lake.meta.testkit.ContractGroup;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Part of {@link FencedLockSuite}: epochs. */
@ContractGroup("epochs")
abstract class LockEpochsContract extends LockLostAnswersContract {

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
        assertThat(second.store().update(data, value("v1"), value("v2")).isApplied())
                .isTrue();
        second.release();

        LockHold third = lockB.acquire(Duration.ZERO);
        assertThat(third.epoch())
                .as("another holder goes past every earlier epoch")
                .isEqualTo(3);
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
