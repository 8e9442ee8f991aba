package io.lake.meta.counter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.MetaKey;
import io.lake.meta.MetaValue;
import org.junit.jupiter.api.Test;

class CounterRecordTest {

    private static final MetaKey KEY = MetaKey.of("seq/ids");

    @Test
    void encode_writesNextThenNonce_andDecodeReadsItBack() {
        CounterRecord record = new CounterRecord(42, "n-1");

        assertThat(record.encode().asUtf8()).isEqualTo("{\"next\":42,\"nonce\":\"n-1\"}");
        assertThat(CounterRecord.decode(KEY, record.encode())).isEqualTo(record);
    }

    @Test
    void decode_ignoresUnknownFields_andAcceptsAMissingNonce() {
        assertThat(CounterRecord.decode(KEY, MetaValue.utf8("{\"x\":[1],\"next\":7}")))
                .isEqualTo(new CounterRecord(7, null));
    }

    @Test
    void decode_rejectsWhatIsNotARecord_namingTheProblem() {
        assertThatThrownBy(() -> CounterRecord.decode(KEY, MetaValue.utf8("{\"nonce\":\"x\"}")))
                .isInstanceOf(CorruptCounterRecordException.class)
                .hasMessageContaining("next");
        assertThatThrownBy(() -> CounterRecord.decode(KEY, MetaValue.utf8("{\"next\":-3}")))
                .isInstanceOf(CorruptCounterRecordException.class)
                .hasMessageContaining("negative");
        assertThatThrownBy(() -> CounterRecord.decode(KEY, MetaValue.utf8("{\"next\":2.0}")))
                .isInstanceOf(CorruptCounterRecordException.class);
        assertThatThrownBy(() -> CounterRecord.decode(KEY, MetaValue.utf8("{\"next\":true}")))
                .isInstanceOf(CorruptCounterRecordException.class);
        assertThatThrownBy(() -> CounterRecord.decode(KEY, MetaValue.utf8("")))
                .isInstanceOf(CorruptCounterRecordException.class);
        assertThatThrownBy(() -> CounterRecord.decode(KEY, MetaValue.utf8("null")))
                .as("the JSON literal null")
                .isInstanceOf(CorruptCounterRecordException.class);
    }

    @Test
    void counterRange_rejectsImpossibleRanges() {
        assertThatThrownBy(() -> new CounterRange(-1, 1)).isInstanceOf(io.lake.meta.InvalidArgumentException.class);
        assertThatThrownBy(() -> new CounterRange(1, 0)).isInstanceOf(io.lake.meta.InvalidArgumentException.class);
        assertThatThrownBy(() -> new CounterRange(Long.MAX_VALUE - 1, 2))
                .isInstanceOf(io.lake.meta.InvalidArgumentException.class);
        CounterRange last = new CounterRange(Long.MAX_VALUE - 1, 1);
        assertThat(last.last()).isEqualTo(Long.MAX_VALUE - 1);
        assertThat(last.contains(Long.MAX_VALUE)).isFalse();
    }
}
