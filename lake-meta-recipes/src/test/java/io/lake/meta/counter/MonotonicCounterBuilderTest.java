package io.lake.meta.counter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.InvalidArgumentException;
import io.lake.meta.MetaKey;
import io.lake.meta.arguments.NoIoMetaStore;
import org.junit.jupiter.api.Test;

class MonotonicCounterBuilderTest {

    private static MonotonicCounter.Builder minimal() {
        return MonotonicCounter.builder().store(new NoIoMetaStore()).key(MetaKey.of("seq/ids"));
    }

    @Test
    void build_withStoreAndKey_doesNoIo_withTheDefaults() {
        MonotonicCounter counter = minimal().build();

        assertThat(counter.key()).isEqualTo(MetaKey.of("seq/ids"));
        assertThat(counter.toString()).contains("firstValue=1").contains("maxAttempts=16");
    }

    @Test
    void missingStoreOrKey_isIllegalState() {
        assertThatThrownBy(() ->
                        MonotonicCounter.builder().key(MetaKey.of("seq/ids")).build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("store");
        assertThatThrownBy(() ->
                        MonotonicCounter.builder().store(new NoIoMetaStore()).build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("key");
    }

    @Test
    void optionSetTwice_isIllegalState() {
        assertThatThrownBy(() -> minimal().key(MetaKey.of("seq/other"))).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> minimal().maxAttempts(2).maxAttempts(3)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> minimal().firstValue(2).firstValue(3)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void nullsAndValuesOutOfRange_areInvalidArguments() {
        assertThatThrownBy(() -> MonotonicCounter.builder().store(null)).isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> MonotonicCounter.builder().key(null)).isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> MonotonicCounter.builder().firstValue(-1))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("firstValue");
        assertThatThrownBy(() -> MonotonicCounter.builder().firstValue(Long.MAX_VALUE))
                .isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> MonotonicCounter.builder().maxAttempts(0))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("maxAttempts");
        assertThatThrownBy(() -> MonotonicCounter.builder().maxAttempts(10_001))
                .isInstanceOf(InvalidArgumentException.class);
        assertThat(MonotonicCounter.builder().firstValue(0).maxAttempts(10_000)).isNotNull();
    }

    @Test
    void nextRange_belowOne_isInvalidBeforeAnyIo() {
        assertThatThrownBy(() -> minimal().build().nextRange(0)).isInstanceOf(InvalidArgumentException.class);
    }
}
