package io.lake.meta.testkit.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.FencedException;
import io.lake.meta.MetaValue;
import io.lake.meta.lease.LeaseRecord;
import io.lake.meta.lock.FencedLock;
import io.lake.meta.lock.LockHold;
import io.lake.meta.testkit.ContractGroup;
import io.lake.meta.testkit.FaultyStore;
import io.lake.meta.testkit.FaultyStore.Call;
import io.lake.meta.testkit.FaultyStore.Fault;
import io.lake.meta.testkit.lease.CountingMetaStore;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Part of {@link FencedLockSuite}: renewal and loss. */
@ContractGroup("renewal and loss")
abstract class LockRenewalAndLossContract extends LockFencedViewContract {

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

        assertThat(lockRecord(LOCK_KEY).expiresAtMillis())
                .isEqualTo(START_MILLIS + RENEW.toMillis() + LEASE.toMillis());
        a.ticker.advance(LEASE.minus(Duration.ofMillis(1)));
        assertThat(hold.isHeld()).as("the deadline counts from the renewal").isTrue();
        a.ticker.advance(Duration.ofMillis(1));
        assertThat(hold.isHeld()).isFalse();
        assertThat(hold.renew()).as("an ended hold is never renewed").isFalse();
        assertThat(lockRecord(LOCK_KEY).expiresAtMillis())
                .isEqualTo(START_MILLIS + RENEW.toMillis() + LEASE.toMillis());
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
        assertThat(counting.plainWrites())
                .as("no background write after the loss")
                .hasSize(writesBefore);
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
        FencedLock lockA = lock(
                a,
                LOCK_KEY,
                store,
                x -> x.listener((hold, reason) -> {
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
