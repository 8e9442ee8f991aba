package io.lake.meta.lease;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.InvalidArgumentException;
import io.lake.meta.MetaKey;
import io.lake.meta.arguments.NoIoMetaStore;
import io.lake.meta.lock.FencedLock;
import io.lake.meta.maintenance.FencedTableLocks;
import io.lake.meta.maintenance.MaintenanceLimits;
import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 23 item 13: every lease-based builder refuses the same lease settings with the same typed
 * error, however far out of range (a lease of about 292 years overflowed nanoseconds).
 */
class TypedErrorsTest {

    private static final Duration CENTURIES = Duration.ofDays(365L * 300);
    private static final MetaKey KEY = MetaKey.of("lease/l");

    static Stream<Duration> outOfRange() {
        return Stream.of(CENTURIES, Duration.ofDays(366), Duration.ofSeconds(Long.MAX_VALUE));
    }

    @ParameterizedTest
    @MethodSource("outOfRange")
    void leaseDuration_outOfRange_isInvalid_inEveryLeaseBuilder(Duration lease) {
        NoIoMetaStore store = new NoIoMetaStore();
        assertThatThrownBy(() -> LeaderElection.builder()
                        .store(store)
                        .leaseKey(KEY)
                        .candidateId("a")
                        .leaseDuration(lease)
                        .build())
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("365 days");
        assertThatThrownBy(() -> LeaseCandidate.builder()
                        .store(store)
                        .leaseKey(KEY)
                        .candidateId("a")
                        .leaseDuration(lease)
                        .build())
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("365 days");
        assertThatThrownBy(() -> FencedLock.builder()
                        .store(store)
                        .key(KEY)
                        .holderId("a")
                        .leaseDuration(lease)
                        .build())
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("365 days");
        assertThatThrownBy(() -> FencedTableLocks.builder()
                        .store(store)
                        .holderId("a")
                        .leaseDuration(lease)
                        .build())
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("365 days");
    }

    @Test
    void renewInterval_andMargin_outOfRange_areInvalid_notArithmetic() {
        NoIoMetaStore store = new NoIoMetaStore();
        assertThatThrownBy(() -> FencedLock.builder()
                        .store(store)
                        .key(KEY)
                        .holderId("a")
                        .leaseDuration(Duration.ofSeconds(10))
                        .renewInterval(CENTURIES)
                        .build())
                .isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> FencedLock.builder()
                        .store(store)
                        .key(KEY)
                        .holderId("a")
                        .leaseDuration(Duration.ofSeconds(10))
                        .retryInterval(CENTURIES)
                        .build())
                .isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> LeaseCandidate.builder()
                        .store(store)
                        .leaseKey(KEY)
                        .candidateId("a")
                        .leaseDuration(Duration.ofSeconds(10))
                        .safetyMargin(CENTURIES)
                        .build())
                .isInstanceOf(InvalidArgumentException.class);
    }

    @Test
    void everyDurationOption_past365Days_isRefused_byEveryBuilderThatTakesIt_withOneMessage() {
        NoIoMetaStore store = new NoIoMetaStore();
        Duration over = Duration.ofDays(366);
        Duration ten = Duration.ofSeconds(10);
        java.util.List<org.assertj.core.api.ThrowableAssert.ThrowingCallable> calls = java.util.List.of(
                () -> LeaderElection.builder().safetyMargin(over),
                () -> LeaderElection.builder().renewInterval(over),
                () -> LeaseCandidate.builder().safetyMargin(over),
                () -> FencedLock.builder().safetyMargin(over),
                () -> FencedLock.builder().renewInterval(over),
                () -> FencedLock.builder().retryInterval(over),
                () -> FencedTableLocks.builder().safetyMargin(over),
                () -> FencedTableLocks.builder().renewInterval(over),
                () -> FencedTableLocks.builder()
                        .store(store)
                        .holderId("a")
                        .leaseDuration(ten)
                        .renewInterval(over));
        for (org.assertj.core.api.ThrowableAssert.ThrowingCallable call : calls) {
            assertThatThrownBy(call)
                    .isInstanceOf(InvalidArgumentException.class)
                    .hasMessageEndingWith(" must be at most 365 days, got " + over);
        }
    }

    @Test
    void maintenanceInterval_thatWouldOverflow_isInvalid() {
        assertThatThrownBy(() -> MaintenanceLimits.of(Duration.ofDays(200_000), 10))
                .isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() ->
                        MaintenanceLimits.fromSettings(java.util.Map.of(), java.util.Map.of("interval", "200000d")))
                .isInstanceOf(InvalidArgumentException.class);
    }

    @Test
    void addListener_null_isInvalid() {
        LeaderElection election = LeaderElection.builder()
                .store(new NoIoMetaStore())
                .leaseKey(KEY)
                .candidateId("a")
                .leaseDuration(Duration.ofSeconds(10))
                .build();
        assertThatThrownBy(() -> election.addListener(null)).isInstanceOf(InvalidArgumentException.class);
    }
}
