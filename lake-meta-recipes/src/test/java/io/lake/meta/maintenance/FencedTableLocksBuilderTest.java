package io.lake.meta.maintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.InvalidArgumentException;
import io.lake.meta.MetaKey;
import io.lake.meta.arguments.NoIoMetaStore;
import io.lake.meta.registry.TableId;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class FencedTableLocksBuilderTest {

    private static FencedTableLocks.Builder minimal() {
        return FencedTableLocks.builder()
                .store(new NoIoMetaStore())
                .holderId("sweeper-a")
                .leaseDuration(Duration.ofSeconds(30));
    }

    @Test
    void lockKey_isTheRegistrationKeyUnderTheLockFamily() {
        assertThat(FencedTableLocks.lockKey(TableId.of("sales", "orders")))
                .isEqualTo(MetaKey.of("lock/tbl/sales/orders"));
        assertThat(FencedTableLocks.lockKey(TableId.of("ns1", "t")))
                .isNotEqualTo(FencedTableLocks.lockKey(TableId.of("ns10", "t")));
        String longest = "n".repeat(TableId.MAX_PART_LENGTH);
        assertThat(FencedTableLocks.lockKey(TableId.of(longest, longest)).toString())
                .as("the longest table names still make a valid key")
                .startsWith("lock/tbl/");
        assertThatThrownBy(() -> FencedTableLocks.lockKey(null)).isInstanceOf(InvalidArgumentException.class);
    }

    @Test
    void build_doesNoIo_andCloseWithoutALock_doesNoIo() {
        FencedTableLocks locks = minimal().build();

        assertThat(locks.isHeld(TableId.of("sales", "orders"))).isFalse();
        assertThat(locks.toString()).contains("holder=sweeper-a", "lease=PT30S");
        locks.close();
        locks.close();
        assertThatThrownBy(() -> locks.tryLock(TableId.of("sales", "orders")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("closed");
    }

    @Test
    void missingRequiredOption_isIllegalState_namingIt() {
        assertThatThrownBy(() -> FencedTableLocks.builder()
                        .holderId("a")
                        .leaseDuration(Duration.ofSeconds(1))
                        .build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("store is required");
        assertThatThrownBy(() -> FencedTableLocks.builder()
                        .store(new NoIoMetaStore())
                        .leaseDuration(Duration.ofSeconds(1))
                        .build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("holderId is required");
        assertThatThrownBy(() -> FencedTableLocks.builder()
                        .store(new NoIoMetaStore())
                        .holderId("a")
                        .build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("leaseDuration is required");
    }

    @Test
    void optionSetTwice_isIllegalState() {
        assertThatThrownBy(() -> minimal().holderId("b"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("holderId was already set");
        assertThatThrownBy(() -> minimal().renewInterval(Duration.ofSeconds(1)).renewInterval(Duration.ofSeconds(2)))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void nullsAndBadValues_areInvalidArguments_withTheLocksRules() {
        assertThatThrownBy(() -> FencedTableLocks.builder().store(null)).isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> FencedTableLocks.builder().holderId(" "))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("holderId");
        assertThatThrownBy(() -> FencedTableLocks.builder().leaseDuration(Duration.ofNanos(1)))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("at least 1 ms");
        assertThatThrownBy(() -> FencedTableLocks.builder().renewInterval(Duration.ZERO))
                .isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> FencedTableLocks.builder().safetyMargin(Duration.ofMillis(-1)))
                .isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> FencedTableLocks.builder().clock(null)).isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> FencedTableLocks.builder().ticker(null)).isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> FencedTableLocks.builder().scheduler(null))
                .isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> minimal().build().isHeld(null)).isInstanceOf(InvalidArgumentException.class);
    }

    @Test
    void aRenewalNotShorterThanTheLease_isRefusedAtBuild() {
        assertThatThrownBy(() -> minimal().renewInterval(Duration.ofSeconds(30)).build())
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("renewInterval");
        assertThatThrownBy(() -> minimal().safetyMargin(Duration.ofSeconds(30)).build())
                .isInstanceOf(InvalidArgumentException.class);
    }
}
