package io.lake.meta.reliability.hostile;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.InvalidArgumentException;
import io.lake.meta.MetaKey;
import io.lake.meta.lease.LeaderElection;
import io.lake.meta.testkit.InMemoryMetaStore;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Found by {@link ValueObjectsHostileTest} (seed 5417074280267583425): a lease duration too long
 * for the ticker's nanosecond arithmetic made {@code build()} throw {@code ArithmeticException}
 * ("long overflow") instead of the builder's documented {@code InvalidArgumentException}.
 */
class LeaseDurationLimitsTest {

    @Test
    void aLeaseDurationPastTheLimit_isRefusedAtTheSetter_withInvalidArgumentException() {
        try (InMemoryMetaStore store = InMemoryMetaStore.create()) {
            for (Duration tooLong : new Duration[] {
                Duration.ofMillis(Long.MAX_VALUE), Duration.ofDays(366), Duration.ofSeconds(Long.MAX_VALUE)
            }) {
                assertThatThrownBy(() -> LeaderElection.builder()
                                .store(store)
                                .leaseKey(MetaKey.of("lease/x"))
                                .candidateId("a")
                                .leaseDuration(tooLong)
                                .renewInterval(Duration.ofSeconds(1))
                                .build())
                        .as("leaseDuration(%s)", tooLong)
                        .isInstanceOf(InvalidArgumentException.class)
                        .hasMessageContaining("leaseDuration must be at most 365 days");
            }
        }
    }
}
