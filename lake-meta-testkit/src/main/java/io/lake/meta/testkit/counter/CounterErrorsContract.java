package io.lake.meta.testkit.counter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.InvalidArgumentException;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaValue;
import io.lake.meta.counter.CorruptCounterRecordException;
import io.lake.meta.counter.CounterExhaustedException;
import io.lake.meta.counter.CounterRange;
import io.lake.meta.counter.MonotonicCounter;
import io.lake.meta.testkit.ContractGroup;
import io.lake.meta.testkit.lease.CountingMetaStore;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Part of {@link CounterSuite}: errors. */
@ContractGroup("errors")
abstract class CounterErrorsContract extends CounterValuesContract {

    @Test
    void nextRange_belowOne_isInvalid_andNothingIsReadOrWritten() {
        CountingMetaStore counting = new CountingMetaStore(store);
        MonotonicCounter counter = counter(counting, b -> b);

        assertThatThrownBy(() -> counter.nextRange(0))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("count");
        assertThatThrownBy(() -> counter.nextRange(-5)).isInstanceOf(InvalidArgumentException.class);
        assertThat(counting.reads()).isZero();
        assertThat(counting.plainWrites()).isEmpty();
    }

    @Test
    void corruptRecords_failClosed_andAreLeftUnchanged() {
        List<String> corrupt = List.of(
                "not json",
                "[1]",
                "{}",
                "{\"next\":-1,\"nonce\":\"x\"}",
                "{\"next\":1.5,\"nonce\":\"x\"}",
                "{\"next\":\"7\",\"nonce\":\"x\"}",
                "{\"next\":null,\"nonce\":\"x\"}",
                "{\"next\":99999999999999999999,\"nonce\":\"x\"}",
                "{\"next\":1,\"next\":2,\"nonce\":\"x\"}",
                "{\"next\":1,\"nonce\":\"x\"} {}");
        for (int i = 0; i < corrupt.size(); i++) {
            MetaKey key = MetaKey.of("seq/corrupt-" + i);
            MetaValue bytes = MetaValue.utf8(corrupt.get(i));
            store.create(key, bytes);
            MonotonicCounter counter =
                    MonotonicCounter.builder().store(store).key(key).build();

            assertThatThrownBy(counter::next)
                    .as(corrupt.get(i))
                    .isInstanceOf(CorruptCounterRecordException.class)
                    .hasMessageContaining(key.toString());
            assertThat(store.get(key)).contains(bytes);
        }
    }

    @Test
    void theLastValues_areHandedOut_thenTheCounterFailsClosed() {
        seed("{\"next\":" + (Long.MAX_VALUE - 3) + ",\"nonce\":\"x\"}");
        MonotonicCounter counter = counter();

        assertThatThrownBy(() -> counter.nextRange(4))
                .isInstanceOf(CounterExhaustedException.class)
                .hasMessageContaining("nothing was written");
        assertThat(storedNext()).isEqualTo(Long.MAX_VALUE - 3);
        assertThat(counter.nextRange(2)).isEqualTo(new CounterRange(Long.MAX_VALUE - 3, 2));
        assertThat(counter.next()).isEqualTo(Long.MAX_VALUE - 1);
        assertThatThrownBy(counter::next)
                .isInstanceOf(CounterExhaustedException.class)
                .satisfies(e ->
                        assertThat(((CounterExhaustedException) e).retryable()).isFalse());
        assertThat(storedNext()).isEqualTo(Long.MAX_VALUE);
    }
}
