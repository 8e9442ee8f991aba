package io.lake.meta.lease;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.MetaKey;
import io.lake.meta.MetaValue;
import org.junit.jupiter.api.Test;

class LeaseRecordTest {

    private static final MetaKey KEY = MetaKey.of("lease/orders");

    private static LeaseRecord decode(String json) {
        return LeaseRecord.decode(KEY, MetaValue.utf8(json));
    }

    @Test
    void encode_thenDecode_roundTrips() {
        LeaseRecord held = LeaseRecord.held("node-a", 7, 1_000, "n1");
        assertThat(LeaseRecord.decode(KEY, held.encode())).isEqualTo(held);
        assertThat(held.encode().asUtf8())
                .isEqualTo("{\"holder\":\"node-a\",\"epoch\":7,\"expiresAtMillis\":1000,\"nonce\":\"n1\"}");
        LeaseRecord vacant = LeaseRecord.vacant(7, 2_000, "n2");
        assertThat(LeaseRecord.decode(KEY, vacant.encode())).isEqualTo(vacant);
        assertThat(vacant.isVacant()).isTrue();
        assertThat(vacant.holder()).isEmpty();
    }

    @Test
    void decode_legacyRecordWithoutEpoch_readsAsEpochZero() {
        LeaseRecord legacy = decode("{\"holder\":\"old\",\"expiresAtMillis\":5}");
        assertThat(legacy.epoch()).isZero();
        assertThat(legacy.holder()).contains("old");
        assertThat(legacy.nonce()).isEmpty();
    }

    @Test
    void decode_unknownFields_areIgnored() {
        LeaseRecord r = decode("{\"holder\":\"a\",\"epoch\":3,\"expiresAtMillis\":9,\"nonce\":\"x\","
                + "\"future\":{\"nested\":[1,2]},\"zone\":\"eu\"}");
        assertThat(r).isEqualTo(LeaseRecord.held("a", 3, 9, "x"));
    }

    @Test
    void decode_maximumEpoch_isAccepted() {
        assertThat(decode("{\"holder\":\"a\",\"epoch\":9223372036854775807,\"expiresAtMillis\":1}")
                        .epoch())
                .isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void decode_malformedRecords_failClosedWithTypedError() {
        String[] bad = {
            "",
            "not json",
            "[1]",
            "\"text\"",
            "{\"holder\":\"a\",\"epoch\":1}",
            "{\"holder\":\"a\",\"epoch\":-1,\"expiresAtMillis\":1}",
            "{\"holder\":\"a\",\"epoch\":1.5,\"expiresAtMillis\":1}",
            "{\"holder\":\"a\",\"epoch\":\"3\",\"expiresAtMillis\":1}",
            "{\"holder\":\"a\",\"epoch\":9223372036854775808,\"expiresAtMillis\":1}",
            "{\"holder\":\"\",\"epoch\":1,\"expiresAtMillis\":1}",
            "{\"holder\":7,\"epoch\":1,\"expiresAtMillis\":1}",
            "{\"holder\":\"a\",\"epoch\":1,\"epoch\":2,\"expiresAtMillis\":1}",
            "{\"holder\":\"a\",\"epoch\":1,\"expiresAtMillis\":1} {}",
        };
        for (String json : bad) {
            assertThatThrownBy(() -> decode(json))
                    .as(json)
                    .isInstanceOf(CorruptLeaseRecordException.class)
                    .hasMessageContaining("lease/orders")
                    .hasMessageContaining("nobody can acquire");
        }
    }

    @Test
    void isFreeAt_heldRecordUntilExpiry_vacantAlways() {
        LeaseRecord held = LeaseRecord.held("a", 1, 100, "n");
        assertThat(held.isFreeAt(99)).isFalse();
        assertThat(held.isFreeAt(100)).isTrue();
        assertThat(LeaseRecord.vacant(1, 100, "n").isFreeAt(0)).isTrue();
    }
}
