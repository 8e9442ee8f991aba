package io.lake.meta.lock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.InvalidArgumentException;
import io.lake.meta.MetaKey;
import io.lake.meta.arguments.NoIoMetaStore;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class FencedLockBuilderTest {

    private static FencedLock.Builder minimal() {
        return FencedLock.builder()
                .store(new NoIoMetaStore())
                .key(MetaKey.of("lock/x"))
                .holderId("a")
                .leaseDuration(Duration.ofSeconds(10));
    }

    @Test
    void build_withTheRequiredOptions_doesNoIo_andIsLatent() {
        FencedLock lock = minimal().build();

        assertThat(lock.state()).isEqualTo(FencedLock.State.LATENT);
        assertThat(lock.key()).isEqualTo(MetaKey.of("lock/x"));
        assertThat(lock.holderId()).isEqualTo("a");
        assertThat(lock.currentHold()).isEmpty();
        assertThat(lock.toString()).contains("renew=PT3.333333333S").contains("retry=PT3.333333333S");
        lock.close(); // a latent lock closes without I/O
        assertThat(lock.state()).isEqualTo(FencedLock.State.CLOSED);
    }

    @Test
    void missingRequiredOption_isIllegalState_namingIt() {
        assertThatThrownBy(() -> FencedLock.builder()
                        .key(MetaKey.of("lock/x"))
                        .holderId("a")
                        .leaseDuration(Duration.ofSeconds(1))
                        .build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("store");
        assertThatThrownBy(() -> FencedLock.builder()
                        .store(new NoIoMetaStore())
                        .holderId("a")
                        .leaseDuration(Duration.ofSeconds(1))
                        .build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("key is required");
        assertThatThrownBy(() -> FencedLock.builder()
                        .store(new NoIoMetaStore())
                        .key(MetaKey.of("lock/x"))
                        .leaseDuration(Duration.ofSeconds(1))
                        .build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("holderId");
        assertThatThrownBy(() -> FencedLock.builder()
                        .store(new NoIoMetaStore())
                        .key(MetaKey.of("lock/x"))
                        .holderId("a")
                        .build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("leaseDuration");
    }

    @Test
    void optionSetTwice_isIllegalState() {
        assertThatThrownBy(() -> minimal().key(MetaKey.of("lock/y")))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("already set");
        assertThatThrownBy(() -> minimal().renewInterval(Duration.ofSeconds(1)).renewInterval(Duration.ofSeconds(1)))
                .isInstanceOf(IllegalStateException.class);
    }

    @Test
    void nullsAndBadValues_areInvalidArguments() {
        assertThatThrownBy(() -> FencedLock.builder().store(null)).isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> FencedLock.builder().key(null)).isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> FencedLock.builder().holderId(" "))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("holderId");
        assertThatThrownBy(() -> FencedLock.builder().key(null))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("key must not be null");
        assertThatThrownBy(() -> FencedLock.builder().holderId("x".repeat(257)))
                .isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> FencedLock.builder().leaseDuration(Duration.ofNanos(999_999)))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("at least 1 ms");
        assertThatThrownBy(() -> FencedLock.builder().safetyMargin(Duration.ofMillis(-1)))
                .isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> FencedLock.builder().renewInterval(Duration.ZERO))
                .isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> FencedLock.builder().retryInterval(Duration.ofSeconds(-1)))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("retryInterval");
        assertThatThrownBy(() -> FencedLock.builder().scheduler(null)).isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> FencedLock.builder().listener(null)).isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> FencedLock.builder().clock(null)).isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> FencedLock.builder().ticker(null)).isInstanceOf(InvalidArgumentException.class);
    }

    @Test
    void marginNotShorterThanTheLease_orRenewalNotShorterThanTheValidity_isInvalid() {
        assertThatThrownBy(() -> minimal().safetyMargin(Duration.ofSeconds(10)).build())
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("safetyMargin");
        assertThatThrownBy(() -> minimal()
                        .safetyMargin(Duration.ofSeconds(2))
                        .renewInterval(Duration.ofSeconds(8))
                        .build())
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("renewInterval");
        assertThat(minimal()
                        .safetyMargin(Duration.ofSeconds(2))
                        .renewInterval(Duration.ofSeconds(7))
                        .build())
                .isNotNull();
    }

    @Test
    void addListener_null_isInvalid() {
        assertThatThrownBy(() -> minimal().build().addListener(null)).isInstanceOf(InvalidArgumentException.class);
    }
}
