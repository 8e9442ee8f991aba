package io.lake.meta.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.InvalidArgumentException;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.arguments.NoIoMetaStore;
import io.lake.meta.fenced.FencedMetaStore;
import io.lake.meta.lease.LeaseAuthority;
import io.lake.meta.lease.LeaseGuard;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class OperationRecordCodecTest {

    private static final MetaKey KEY = MetaKey.of("ops/acme/op-1");
    private static final OperationId ID = OperationId.of("acme", "op-1");

    @Test
    void encodeThenDecode_givesTheSameRecord() {
        OperationRecord written = OperationRecordCodec.encode(
                ID,
                "sha256:ab",
                OperationState.COMPLETED,
                new OperationOwner("node-a", 4),
                2,
                10,
                20L,
                "{\"ok\":true}",
                null,
                OperationRecordCodec.noUnknownFields());

        OperationRecord read = OperationRecordCodec.decode(KEY, written.storedValue());

        assertThat(read).isEqualTo(written);
        assertThat(read.owner()).isEqualTo(new OperationOwner("node-a", 4));
        assertThat(read.attempt()).isEqualTo(2);
        assertThat(read.outcome()).contains("{\"ok\":true}");
        assertThat(written.storedValue().asUtf8())
                .matches(java.util.regex.Pattern.quote("{\"v\":1,\"digest\":\"sha256:ab\",\"state\":\"completed\","
                                + "\"holder\":\"node-a\",\"epoch\":4,\"attempt\":2,\"startedAtMillis\":10,\"endedAtMillis\":20,"
                                + "\"outcome\":\"{\\\"ok\\\":true}\",\"attemptId\":\"")
                        + "[0-9a-f-]{36}\"\\}");
    }

    @Test
    void everyEncoding_leavesDifferentBytes_soALostWriteIsRecognisedByItsOwnBytes() {
        OperationRecord first = OperationRecordCodec.encode(
                ID,
                "sha256:ab",
                OperationState.IN_PROGRESS,
                new OperationOwner("node-a", 4),
                1,
                10,
                null,
                null,
                null,
                OperationRecordCodec.noUnknownFields());
        OperationRecord second = OperationRecordCodec.encode(
                ID,
                "sha256:ab",
                OperationState.IN_PROGRESS,
                new OperationOwner("node-a", 4),
                1,
                10,
                null,
                null,
                null,
                OperationRecordCodec.noUnknownFields());

        assertThat(first.storedValue()).isNotEqualTo(second.storedValue());
        assertThat(OperationRecordCodec.decode(KEY, first.storedValue())
                        .unknownFields()
                        .has("attemptId"))
                .as("a known field, never carried over as unknown")
                .isFalse();
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "nope",
                "{\"digest\":\"d\",\"state\":\"in_progress\",\"holder\":\"a\",\"epoch\":1,\"attempt\":1,\"startedAtMillis\":1}",
                "{\"v\":9,\"digest\":\"d\",\"state\":\"in_progress\",\"holder\":\"a\",\"epoch\":1,\"attempt\":1,\"startedAtMillis\":1}",
                "{\"v\":1,\"digest\":\"d\",\"state\":\"running\",\"holder\":\"a\",\"epoch\":1,\"attempt\":1,\"startedAtMillis\":1}",
                "{\"v\":1,\"state\":\"in_progress\",\"holder\":\"a\",\"epoch\":1,\"attempt\":1,\"startedAtMillis\":1}",
                "{\"v\":1,\"digest\":\"d\",\"state\":\"in_progress\",\"holder\":\"a\",\"epoch\":-1,\"attempt\":1,\"startedAtMillis\":1}",
                "{\"v\":1,\"digest\":\"d\",\"state\":\"in_progress\",\"holder\":\"a\",\"epoch\":1,\"attempt\":0,\"startedAtMillis\":1}",
                "{\"v\":1,\"digest\":\"d\",\"state\":\"completed\",\"holder\":\"a\",\"epoch\":1,\"attempt\":1,\"startedAtMillis\":1,"
                        + "\"endedAtMillis\":2}",
                "{\"v\":1,\"digest\":\"d\",\"state\":\"abandoned\",\"holder\":\"a\",\"epoch\":1,\"attempt\":1,\"startedAtMillis\":1,"
                        + "\"reason\":\"r\"}"
            })
    void bytesThatAreNotARecord_areATypedErrorNamingTheKey(String json) {
        assertThatThrownBy(() -> OperationRecordCodec.decode(KEY, MetaValue.utf8(json)))
                .isInstanceOf(CorruptOperationRecordException.class)
                .hasMessageContaining("'ops/acme/op-1'");
    }

    @Test
    void operationIds_mapToKeysAndBack_andRejectWhatWouldEscapeTheKey() {
        assertThat(OperationId.of("acme", "2026-01-01:order.42").key())
                .isEqualTo(MetaKey.of("ops/acme/2026-01-01:order.42"));
        assertThat(OperationId.fromKey(KEY)).isEqualTo(ID);
        assertThatThrownBy(() -> OperationId.of("acme", "a/b")).isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> OperationId.of("", "a"))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("tenant");
        assertThatThrownBy(() -> OperationId.of("acme", "x".repeat(257))).isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> OperationId.fromKey(MetaKey.of("ops/acme")))
                .isInstanceOf(InvalidArgumentException.class);
    }

    @Test
    void theBuilder_requiresAStoreAndAnAuthority_andAPositiveRetention() {
        LeaseAuthority authority = new LeaseAuthority() {
            @Override
            public MetaKey leaseKey() {
                return MetaKey.of("lease/x");
            }

            @Override
            public Optional<LeaseGuard> currentGuard() {
                return Optional.empty();
            }
        };
        assertThatThrownBy(() -> OperationJournal.builder().authority(authority).build())
                .isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> OperationJournal.builder().retention(Duration.ZERO))
                .isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> OperationJournal.builder().retention(Duration.ofDays(40_000)))
                .isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> OperationJournal.builder().store(null)).isInstanceOf(InvalidArgumentException.class);
        LeaseAuthority other = new LeaseAuthority() {
            @Override
            public MetaKey leaseKey() {
                return MetaKey.of("lease/other");
            }

            @Override
            public Optional<LeaseGuard> currentGuard() {
                return Optional.empty();
            }
        };
        MetaStore fencedByOther = FencedMetaStore.over(new NoIoMetaStore(), other);
        assertThatThrownBy(() -> OperationJournal.builder()
                        .store(fencedByOther)
                        .authority(authority)
                        .build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("lease/other");
    }
}
