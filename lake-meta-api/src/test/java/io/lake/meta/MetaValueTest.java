package io.lake.meta;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class MetaValueTest {

    @Test
    void sizeLimit_is256KiB() {
        assertThat(MetaValue.of(new byte[Limits.MAX_VALUE_BYTES]).size()).isEqualTo(256 * 1024);
        assertThatThrownBy(() -> MetaValue.of(new byte[Limits.MAX_VALUE_BYTES + 1]))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("262145 bytes");
    }

    @Test
    void null_isRejectedWithTheTypedError() {
        assertThatThrownBy(() -> MetaValue.of(null)).isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> MetaValue.utf8(null)).isInstanceOf(InvalidArgumentException.class);
    }

    @Test
    void utf8_loneSurrogate_isRefused_insteadOfStoredAsAQuestionMark() {
        for (String text : new String[] {"v\ud83d", "\ud83dv", "v\ude00", "\ude00\ud83d"}) {
            AtomicReference<MetaValue> stored = new AtomicReference<>();

            Throwable thrown = catchThrowable(() -> stored.set(MetaValue.utf8(text)));

            assertThat(thrown)
                    .as(
                            "MetaValue.utf8 of the UTF-16 units %s (stored instead: %s)",
                            text.chars().mapToObj(Integer::toHexString).toList(), stored.get())
                    .isInstanceOf(InvalidArgumentException.class)
                    .hasMessageContaining("lone")
                    .hasMessageContaining("surrogate");
        }
        assertThatThrownBy(() -> MetaValue.utf8("ab\ud83d")).hasMessageContaining("at index 2");
    }

    @Test
    void utf8_surrogatePair_isItsFourByteEncoding() {
        assertThat(MetaValue.utf8("\ud83d\ude00").toByteArray())
                .containsExactly((byte) 0xf0, (byte) 0x9f, (byte) 0x98, (byte) 0x80);
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
        assertThat(MetaValue.of(new byte[] {1, 2}))
                .isEqualTo(MetaValue.of(new byte[] {1, 2}))
                .hasSameHashCodeAs(MetaValue.of(new byte[] {1, 2}));
        assertThat(MetaValue.of(new byte[] {1, 2}))
                .isNotEqualTo(MetaValue.of(new byte[] {1, 2, 0}))
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
