package io.lake.meta.lease;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.InvalidArgumentException;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.arguments.NoIoMetaStore;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class LeaderElectionBuilderTest {

    /** Never called: the builder must validate without I/O. */
    private static final MetaStore UNUSED = new NoIoMetaStore();

    private static LeaderElection.Builder minimal() {
        return LeaderElection.builder()
                .store(UNUSED)
                .leaseKey(MetaKey.of("lease/x"))
                .candidateId("a")
                .leaseDuration(Duration.ofSeconds(10));
    }

    @Test
    void build_minimal_defaultsRenewToAThirdAndStaysLatent() {
        LeaderElection e = minimal().build();
        assertThat(e.state()).isEqualTo(LeaderElection.State.LATENT);
        assertThat(e.toString()).contains("renew=PT3.333333333S").contains("margin=PT0S");
        assertThat(e.currentGuard()).isEmpty();
        assertThat(e.isLeader()).isFalse();
    }

    @Test
    void build_missingRequiredOption_failsWithIllegalState() {
        assertThatThrownBy(() -> LeaderElection.builder()
                        .leaseKey(MetaKey.of("lease/x"))
                        .candidateId("a")
                        .leaseDuration(Duration.ofSeconds(1))
                        .build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("store is required");
        assertThatThrownBy(() -> LeaderElection.builder()
                        .store(UNUSED)
                        .candidateId("a")
                        .leaseDuration(Duration.ofSeconds(1))
                        .build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("leaseKey is required");
        assertThatThrownBy(() -> LeaderElection.builder()
                        .store(UNUSED)
                        .leaseKey(MetaKey.of("lease/x"))
                        .leaseDuration(Duration.ofSeconds(1))
                        .build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("candidateId is required");
        assertThatThrownBy(() -> LeaderElection.builder()
                        .store(UNUSED)
                        .leaseKey(MetaKey.of("lease/x"))
                        .candidateId("a")
                        .build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("leaseDuration is required");
    }

    @Test
    void setOptionTwice_failsWithIllegalState() {
        assertThatThrownBy(() -> minimal().leaseDuration(Duration.ofSeconds(2)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("leaseDuration was already set");
        assertThatThrownBy(() -> minimal().ticker(System::nanoTime).ticker(System::nanoTime))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("ticker was already set");
    }

    @Test
    void renewInterval_notShorterThanDuration_isRejected() {
        assertThatThrownBy(() -> minimal().renewInterval(Duration.ofSeconds(10)).build())
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("renewInterval PT10S must be shorter");
        assertThatThrownBy(() -> minimal().renewInterval(Duration.ofSeconds(11)).build())
                .isInstanceOf(InvalidArgumentException.class);
        assertThat(minimal().renewInterval(Duration.ofMillis(9_999)).build()).isNotNull();
    }

    @Test
    void renewInterval_mustBeShorterThanDurationMinusMargin() {
        assertThatThrownBy(() -> minimal()
                        .safetyMargin(Duration.ofSeconds(2))
                        .renewInterval(Duration.ofSeconds(8))
                        .build())
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("PT8S");
        assertThat(minimal()
                        .safetyMargin(Duration.ofSeconds(2))
                        .renewInterval(Duration.ofMillis(7_999))
                        .build())
                .isNotNull();
    }

    @Test
    void safetyMargin_notShorterThanDuration_isRejected() {
        assertThatThrownBy(() -> minimal()
                        .safetyMargin(Duration.ofSeconds(10))
                        .renewInterval(Duration.ofSeconds(1))
                        .build())
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("safetyMargin");
        assertThatThrownBy(() -> minimal().safetyMargin(Duration.ofSeconds(-1)))
                .isInstanceOf(InvalidArgumentException.class);
    }

    @Test
    void badValues_areRejected() {
        assertThatThrownBy(() -> LeaderElection.builder().leaseDuration(Duration.ZERO))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("at least 1 ms");
        assertThatThrownBy(() -> LeaderElection.builder().renewInterval(Duration.ZERO))
                .isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> LeaderElection.builder().candidateId(" "))
                .isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> LeaderElection.builder().candidateId("x".repeat(257)))
                .isInstanceOf(InvalidArgumentException.class);
    }

    @Test
    void nullOptions_areInvalidArguments_likeEveryOtherBuilder() {
        LeaderElection.Builder b = LeaderElection.builder();
        assertThatThrownBy(() -> b.store(null))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("store");
        assertThatThrownBy(() -> b.leaseKey(null))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("leaseKey");
        assertThatThrownBy(() -> b.candidateId(null))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("candidateId");
        assertThatThrownBy(() -> b.leaseDuration(null))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("leaseDuration");
        assertThatThrownBy(() -> b.renewInterval(null))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("renewInterval");
        assertThatThrownBy(() -> b.safetyMargin(null))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("safetyMargin");
        assertThatThrownBy(() -> b.clock(null))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("clock");
        assertThatThrownBy(() -> b.ticker(null))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("ticker");
        assertThatThrownBy(() -> b.scheduler(null))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("scheduler");
        assertThatThrownBy(() -> b.listener(null))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("listener");
    }

    @Test
    void lifecycle_startTwice_andAfterClose_failWithIllegalState() {
        LeaderElection e = minimal().build();
        e.close(); // latent → closed without I/O: nothing was ever installed
        assertThat(e.state()).isEqualTo(LeaderElection.State.CLOSED);
        assertThatThrownBy(e::start).isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
        assertThatThrownBy(e::campaignOnce)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("closed");
        assertThatThrownBy(e::resign).isInstanceOf(IllegalStateException.class);
        e.close(); // idempotent
    }
}
