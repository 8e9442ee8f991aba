package io.lake.meta.testkit.lock;

import static org.assertj.core.api.Assertions.assertThat;

import io.lake.meta.MetaKey;
import io.lake.meta.lock.FencedLock;
import io.lake.meta.lock.LockHold;
import io.lake.meta.testkit.ContractGroup;
import io.lake.meta.testkit.FaultyStore;
import io.lake.meta.testkit.FaultyStore.Call;
import io.lake.meta.testkit.FaultyStore.Fault;
import java.time.Duration;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** Part of {@link FencedLockSuite}: lost answers. */
@ContractGroup("lost answers")
abstract class LockLostAnswersContract extends LockRacingContract {

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
        assertThat(hold.store()
                        .create(MetaKey.of("tbl/ns1/orders"), value("v1"))
                        .isApplied())
                .isTrue();
    }

    @Test
    void tryAcquireWhoseAnswerWasLost_leavesNothingHeld_soAnotherHolderNeedNotWait() {
        FaultyStore network = FaultyStore.over(store);
        FencedLock lockA = lock(node("node-a"), LOCK_KEY, network, b -> b);
        network.failNext(Call.WRITE, Fault.ANSWER_LOST);

        assertThat(lockA.tryAcquire()).isEmpty();

        assertThat(lockRecord(LOCK_KEY).isVacant())
                .as("the write that did apply was released")
                .isTrue();
        assertThat(lock(node("node-b"), LOCK_KEY).tryAcquire().orElseThrow().epoch())
                .isEqualTo(2);
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
