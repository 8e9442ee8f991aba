package io.lake.meta.lease;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.InvalidArgumentException;
import io.lake.meta.MetaKey;
import io.lake.meta.arguments.NoIoMetaStore;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class LeaseCandidateBuilderTest {

    private static LeaseCandidate.Builder minimal() {
        return LeaseCandidate.builder()
                .store(new NoIoMetaStore())
                .leaseKey(MetaKey.of("lease/x"))
                .candidateId("a")
                .leaseDuration(Duration.ofSeconds(10));
    }

    @Test
    void build_doesNoIo_andHoldsNoGuard() {
        LeaseCandidate candidate = minimal().build();

        assertThat(candidate.leaseKey()).isEqualTo(MetaKey.of("lease/x"));
        assertThat(candidate.candidateId()).isEqualTo("a");
        assertThat(candidate.currentGuard()).isEmpty();
    }

    @Test
    void badOptions_areInvalidArguments_andMissingOrRepeatedOnesIllegalState() {
        assertThatThrownBy(() -> LeaseCandidate.builder().store(null)).isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> LeaseCandidate.builder().candidateId("")).isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> LeaseCandidate.builder().leaseDuration(Duration.ZERO))
                .isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> LeaseCandidate.builder().safetyMargin(Duration.ofSeconds(-1)))
                .isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> minimal().safetyMargin(Duration.ofSeconds(10)).build())
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("shorter");
        assertThatThrownBy(() -> minimal().candidateId("b")).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() ->
                        LeaseCandidate.builder().store(new NoIoMetaStore()).build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("leaseKey");
        assertThatThrownBy(() -> minimal().build().addListener(null)).isInstanceOf(InvalidArgumentException.class);
    }
}
