package io.lake.meta.cli.kv;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.InvalidArgumentException;
import io.lake.meta.Limits;
import io.lake.meta.MetaValue;
import io.lake.meta.cli.UsageException;
import org.junit.jupiter.api.Test;

class ValueEncodingTest {

    private static final MetaValue BINARY = MetaValue.of(new byte[] {0, (byte) 0xff, 0x10});

    @Test
    void utf8_roundTripsText() {
        MetaValue value = ValueEncoding.UTF8.decode("caf\u00e9 \u2603", "VALUE");

        assertThat(value.size()).isEqualTo(9);
        assertThat(ValueEncoding.UTF8.encode(value, "value")).isEqualTo("caf\u00e9 \u2603");
    }

    @Test
    void utf8_refusesALoneSurrogate_insteadOfStoringAQuestionMark() {
        assertThatThrownBy(() -> ValueEncoding.UTF8.decode("a\uD800b", "VALUE"))
                .isInstanceOf(UsageException.class)
                .hasMessage("VALUE is not valid text (it holds a lone surrogate, which has no UTF-8 encoding):"
                        + " pass the value with --hex or --base64");
    }

    @Test
    void utf8_refusesToPrintBinary() {
        assertThatThrownBy(() -> ValueEncoding.UTF8.encode(BINARY, "value of tbl/a/b"))
                .isInstanceOf(UsageException.class)
                .hasMessage("value of tbl/a/b is not UTF-8 text (3 bytes): print it with --hex or --base64");
        assertThat(ValueEncoding.UTF8.display(BINARY)).isEqualTo("0x00ff10");
    }

    @Test
    void hex_roundTrips() {
        assertThat(ValueEncoding.HEX.decode("00FF10", "VALUE")).isEqualTo(BINARY);
        assertThat(ValueEncoding.HEX.encode(BINARY, "value")).isEqualTo("00ff10");
        assertThat(ValueEncoding.HEX.decode("", "VALUE")).isEqualTo(MetaValue.empty());
    }

    @Test
    void hex_rejectsOddLengthAndNonDigits() {
        assertThatThrownBy(() -> ValueEncoding.HEX.decode("abc", "--expect"))
                .isInstanceOf(UsageException.class)
                .hasMessageStartingWith("--expect is not hex");
        assertThatThrownBy(() -> ValueEncoding.HEX.decode("zz", "VALUE"))
                .isInstanceOf(UsageException.class)
                .hasMessageStartingWith("VALUE is not hex");
    }

    @Test
    void base64_roundTrips() {
        assertThat(ValueEncoding.BASE64.decode("AP8Q", "VALUE")).isEqualTo(BINARY);
        assertThat(ValueEncoding.BASE64.encode(BINARY, "value")).isEqualTo("AP8Q");
    }

    @Test
    void base64_rejectsGarbage() {
        assertThatThrownBy(() -> ValueEncoding.BASE64.decode("not base64!", "VALUE"))
                .isInstanceOf(UsageException.class)
                .hasMessageStartingWith("VALUE is not base64");
    }

    @Test
    void decode_rejectsValuesOverTheLimit() {
        String tooLarge = "00".repeat(Limits.MAX_VALUE_BYTES + 1);

        assertThat(ValueEncoding.HEX
                        .decode("00".repeat(Limits.MAX_VALUE_BYTES), "VALUE")
                        .size())
                .isEqualTo(Limits.MAX_VALUE_BYTES);
        assertThatThrownBy(() -> ValueEncoding.HEX.decode(tooLarge, "VALUE"))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("the limit is " + Limits.MAX_VALUE_BYTES + " bytes");
    }
}
