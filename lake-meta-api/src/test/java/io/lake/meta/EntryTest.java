package io.lake.meta;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** {@link Entry#adopting}: the decoding of {@link MetaKey#fromUtf8} and {@link MetaValue#of}, without their copies. */
class EntryTest {

    @Test
    void adopting_decodesAsTheCopyingFactoriesDo() {
        for (String key : new String[] {"tbl/ns1/orders", "tbl/ns1/τ-表", "a/b"}) {
            byte[] keyBytes = key.getBytes(StandardCharsets.UTF_8);
            byte[] value = {1, 2, 3};

            Entry adopted = Entry.adopting(keyBytes.clone(), value.clone());

            assertThat(adopted).isEqualTo(new Entry(MetaKey.fromUtf8(keyBytes), MetaValue.of(value)));
            assertThat(adopted.key().utf8()).isEqualTo(keyBytes);
            assertThat(adopted.key().toString()).isEqualTo(key);
        }
        assertThat(Entry.adopting("tbl/k".getBytes(StandardCharsets.UTF_8), new byte[0])
                        .value())
                .isEqualTo(MetaValue.empty());
    }

    @Test
    void adopting_refusesWhatTheCopyingFactoriesRefuse() {
        assertThatThrownBy(() -> Entry.adopting("no-family".getBytes(StandardCharsets.UTF_8), new byte[1]))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("has no family");
        assertThatThrownBy(() -> Entry.adopting(new byte[] {'t', '/', (byte) 0xff}, new byte[1]))
                .isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() ->
                        Entry.adopting("tbl/k".getBytes(StandardCharsets.UTF_8), new byte[Limits.MAX_VALUE_BYTES + 1]))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("262145 bytes");
        assertThatThrownBy(() -> Entry.adopting(null, new byte[1])).isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> Entry.adopting("tbl/k".getBytes(StandardCharsets.UTF_8), null))
                .isInstanceOf(InvalidArgumentException.class);
    }
}
