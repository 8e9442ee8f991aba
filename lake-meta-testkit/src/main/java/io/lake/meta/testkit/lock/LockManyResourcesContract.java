package io.lake.meta.testkit.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.FencedException;
import io.lake.meta.MetaKey;
import io.lake.meta.lock.LockHold;
import io.lake.meta.testkit.ContractGroup;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Part of {@link FencedLockSuite}: many resources. */
@ContractGroup("many resources")
abstract class LockManyResourcesContract extends LockRenewalAndLossContract {

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
            assertThat(holds.get(i).store().create(dataKey(i), value("v1")).isApplied())
                    .isTrue();
        }

        for (int i = 0; i < 4; i++) {
            elapse(RENEW, a); // one scheduler renews them all, past the lease
        }

        for (int i = 0; i < RESOURCES; i++) {
            assertThat(holds.get(i).isHeld()).as("hold %d", i).isTrue();
            assertThat(lockRecord(lockKey(i)).expiresAtMillis())
                    .isEqualTo(START_MILLIS + 4 * RENEW.toMillis() + LEASE.toMillis());
            assertThat(holds.get(i)
                            .store()
                            .update(dataKey(i), value("v1"), value("v2"))
                            .isApplied())
                    .isTrue();
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
        assertThatThrownBy(() -> holds.get(7).store().create(dataKey(7), value("a")))
                .isInstanceOf(FencedException.class);
        assertThat(taken.store().create(dataKey(7), value("b")).isApplied()).isTrue();
        for (int i = 0; i < RESOURCES; i++) {
            if (i != 7) {
                assertThat(holds.get(i).isHeld()).isTrue();
                assertThat(holds.get(i).store().create(dataKey(i), value("a")).isApplied())
                        .isTrue();
                assertThat(lockRecord(lockKey(i)).holder()).contains("node-a");
            }
        }
        assertThat(store.get(dataKey(7))).contains(value("b"));
    }
}
