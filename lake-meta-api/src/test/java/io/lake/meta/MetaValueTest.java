package io.lake.meta;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class MetaValueTest {

    @Test
    void sizeLimit_is256KiB() {
        assertThat(MetaValue.of(new byte[Limits.MAX_VALUE_BYTES]).size()).isEqualTo(256 * 1024);
        assertThatThrownBy(() -> MetaValue.of(new byte[Limits.MAX_VALUE_BYTES + 1]))
                .isInstanceOf(InvalidArgumentException.class).hasMessageContaining("262145 bytes");
    }

    @Test
    void null_isRejectedWithTheTypedError() {
        assertThatThrownBy(() -> MetaValue.of(null)).isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> MetaValue.utf8(null)).isInstanceOf(InvalidArgumentException.class);
    }

    @Test
    void emptyValue_isAValueOfZeroBytes() {
        assertThat(MetaValue.empty().size()).isZero();
        assertThat(MetaValue.of(new byte[0])).isEqualTo(MetaValue.empty());
        assertThat(MetaValue.utf8("")).isEqualTo(MetaValue.empty());
    }

    @Test
    void of_copiesItsInput_andToByteArrayReturnsACopy() {
        byte[] bytes = {1, 2, 3};
        MetaValue value = MetaValue.of(bytes);
        bytes[0] = 9;
        value.toByteArray()[1] = 9;

        assertThat(value.toByteArray()).containsExactly(1, 2, 3);
    }

    @Test
    void equality_isByteForByte() {
        assertThat(MetaValue.of(new byte[] {1, 2})).isEqualTo(MetaValue.of(new byte[] {1, 2}))
                .hasSameHashCodeAs(MetaValue.of(new byte[] {1, 2}));
        assertThat(MetaValue.of(new byte[] {1, 2})).isNotEqualTo(MetaValue.of(new byte[] {1, 2, 0}))
                .isNotEqualTo(MetaValue.of(new byte[] {2, 1}));
        assertThat(MetaValue.utf8("\u00e9")).isEqualTo(MetaValue.of(new byte[] {(byte) 0xc3, (byte) 0xa9}));
    }

    @Test
    void toString_showsTextOrHex() {
        assertThat(MetaValue.utf8("hello")).hasToString("\"hello\"");
        assertThat(MetaValue.of(new byte[] {0, (byte) 0xff})).hasToString("0x00ff");
        assertThat(MetaValue.utf8("x".repeat(100)).toString()).endsWith("(100 bytes)");
        assertThat(MetaValue.of(new byte[40]).toString()).endsWith("... (40 bytes)");
    }
}
