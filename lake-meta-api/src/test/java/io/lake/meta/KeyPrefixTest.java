package io.lake.meta;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class KeyPrefixTest {

    @Test
    void prefix_startsWithAFullFamilySegment() {
        assertThat(KeyPrefix.of("tbl/").family()).isEqualTo("tbl");
        assertThat(KeyPrefix.of("tbl/ns1/").family()).isEqualTo("tbl");
        assertThat(KeyPrefix.of("tbl/ns1/t").family()).isEqualTo("tbl");
        assertThat(KeyPrefix.family("tbl")).isEqualTo(KeyPrefix.of("tbl/"));
    }

    @Test
    void prefixWithoutAFullFamilySegment_isRejected() {
        for (String bad : new String[] {"", "t", "tbl", "/", "/x", "Tbl/", "_t/", "-t/", "f".repeat(33) + "/"}) {
            assertThatThrownBy(() -> KeyPrefix.of(bad)).as("'%s'", bad).isInstanceOf(InvalidArgumentException.class);
        }
        assertThatThrownBy(() -> KeyPrefix.of(null)).isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> KeyPrefix.family("Bad")).isInstanceOf(InvalidArgumentException.class);
    }

    @Test
    void prefix_rejectsLoneSurrogatesAndOver1024Bytes() {
        assertThatThrownBy(() -> KeyPrefix.of("tbl/\ud83d")).isInstanceOf(InvalidArgumentException.class);
        assertThat(KeyPrefix.of("tbl/" + "p".repeat(1020)).utf8()).hasSize(1024);
        assertThatThrownBy(() -> KeyPrefix.of("tbl/" + "p".repeat(1021))).isInstanceOf(InvalidArgumentException.class);
    }

    @Test
    void contains_isATextPrefixTest() {
        KeyPrefix ns1 = KeyPrefix.of("tbl/ns1/");

        assertThat(ns1.contains(MetaKey.of("tbl/ns1/a"))).isTrue();
        assertThat(ns1.contains(MetaKey.of("tbl/ns10/a"))).isFalse();
        assertThat(ns1.contains(MetaKey.of("tbl/ns1"))).isFalse();
        assertThat(KeyPrefix.of("tbl/ns1/t").contains(MetaKey.of("tbl/ns1/t")))
                .as("a key equal to the prefix")
                .isTrue();
    }

    @Test
    void utf8_isACopy_andEqualityIsByText() {
        KeyPrefix p = KeyPrefix.of("tbl/\u00e9");
        byte[] bytes = p.utf8();
        bytes[0] = 0;

        assertThat(p.utf8()).isEqualTo("tbl/\u00e9".getBytes(StandardCharsets.UTF_8));
        assertThat(p)
                .isEqualTo(KeyPrefix.of("tbl/\u00e9"))
                .hasSameHashCodeAs(KeyPrefix.of("tbl/\u00e9"))
                .isNotEqualTo(KeyPrefix.of("tbl/e"))
                .hasToString("tbl/\u00e9");
    }
}
