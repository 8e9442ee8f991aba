package io.lake.meta.registry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.InvalidArgumentException;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class RegistrationCodecTest {

    private static final MetaKey KEY = MetaKey.of("tbl/sales/orders");

    @Test
    void encodeThenDecode_givesTheSameRegistration_withKnownFieldsFirst() {
        TableRegistration written = RegistrationCodec.encode(
                TableId.of("sales", "orders"),
                TableSpec.of("s3://x", "iceberg").withProperty("owner", "o"),
                3,
                TableState.DROPPED,
                7L,
                null,
                RegistrationCodec.noUnknownFields());

        TableRegistration read = RegistrationCodec.decode(KEY, written.storedValue());

        assertThat(read).isEqualTo(written);
        assertThat(read.generation()).isEqualTo(3);
        assertThat(read.state()).isEqualTo(TableState.DROPPED);
        assertThat(read.droppedAt())
                .hasValueSatisfying(t -> assertThat(t.toEpochMilli()).isEqualTo(7));
        assertThat(written.storedValue().asUtf8())
                .isEqualTo(
                        "{\"v\":1,\"state\":\"dropped\",\"generation\":3,"
                                + "\"location\":\"s3://x\",\"format\":\"iceberg\",\"properties\":{\"owner\":\"o\"},\"droppedAtMillis\":7}");
    }

    @Test
    void unknownFields_areKeptAndWrittenBackAfterTheKnownOnes() {
        TableRegistration read = RegistrationCodec.decode(
                KEY,
                MetaValue.utf8("{\"zone\":\"eu\",\"v\":1,\"state\":\"active\","
                        + "\"generation\":1,\"location\":\"s3://x\",\"format\":\"delta\",\"audit\":[1,2]}"));

        TableRegistration rewritten = RegistrationCodec.encode(
                read.id(), read.spec(), 2, TableState.ACTIVE, null, null, read.unknownFields());

        assertThat(rewritten.storedValue().asUtf8())
                .isEqualTo(
                        "{\"v\":1,\"state\":\"active\",\"generation\":2,"
                                + "\"location\":\"s3://x\",\"format\":\"delta\",\"properties\":{},\"zone\":\"eu\",\"audit\":[1,2]}");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "not json",
                "[1]",
                "{\"state\":\"active\",\"generation\":1,\"location\":\"s3://x\",\"format\":\"d\"}",
                "{\"v\":2,\"state\":\"active\",\"generation\":1,\"location\":\"s3://x\",\"format\":\"d\"}",
                "{\"v\":1,\"state\":\"gone\",\"generation\":1,\"location\":\"s3://x\",\"format\":\"d\"}",
                "{\"v\":1,\"state\":\"active\",\"generation\":0,\"location\":\"s3://x\",\"format\":\"d\"}",
                "{\"v\":1,\"state\":\"active\",\"generation\":1.5,\"location\":\"s3://x\",\"format\":\"d\"}",
                "{\"v\":1,\"state\":\"active\",\"generation\":\"1\",\"location\":\"s3://x\",\"format\":\"d\"}",
                "{\"v\":1,\"state\":\"active\",\"generation\":1,\"location\":\" \",\"format\":\"d\"}",
                "{\"v\":1,\"state\":\"active\",\"generation\":1,\"location\":\"s3://x\"}",
                "{\"v\":1,\"state\":\"active\",\"generation\":1,\"location\":\"s3://x\",\"format\":\"d\",\"properties\":{\"a\":1}}",
                "{\"v\":1,\"state\":\"dropped\",\"generation\":2,\"location\":\"s3://x\",\"format\":\"d\"}",
                "{\"v\":1,\"state\":\"purging\",\"generation\":3,\"location\":\"s3://x\",\"format\":\"d\",\"droppedAtMillis\":1}",
                "{\"v\":1,\"v\":1,\"state\":\"active\",\"generation\":1,\"location\":\"s3://x\",\"format\":\"d\"}",
                "{\"v\":1,\"state\":\"active\",\"generation\":1,\"location\":\"s3://x\",\"format\":\"d\"} {}"
            })
    void bytesThatAreNotARegistration_areATypedErrorNamingTheKey(String json) {
        assertThatThrownBy(() -> RegistrationCodec.decode(KEY, MetaValue.utf8(json)))
                .isInstanceOf(CorruptRegistrationException.class)
                .hasMessageContaining("'tbl/sales/orders'")
                .satisfies(e -> assertThat(((CorruptRegistrationException) e).retryable())
                        .isFalse());
    }

    @Test
    void aKeyOutsideTheRegistryLayout_isATypedErrorNamingTheKey() {
        MetaValue good = RegistrationCodec.encode(
                        TableId.of("a", "b"),
                        TableSpec.of("s3://x", "d"),
                        1,
                        TableState.ACTIVE,
                        null,
                        null,
                        RegistrationCodec.noUnknownFields())
                .storedValue();

        assertThatThrownBy(() -> RegistrationCodec.decode(MetaKey.of("tbl/a/b/c"), good))
                .isInstanceOf(CorruptRegistrationException.class)
                .hasMessageContaining("tbl/a/b/c");
        assertThatThrownBy(() -> RegistrationCodec.decode(MetaKey.of("tbl/onlyone"), good))
                .isInstanceOf(CorruptRegistrationException.class);
    }

    @Test
    void tableIds_mapToKeysAndBack() {
        TableId id = TableId.of("Sales_EU.2026", "orders-v2");

        assertThat(id.key()).isEqualTo(MetaKey.of("tbl/Sales_EU.2026/orders-v2"));
        assertThat(TableId.fromKey(id.key())).isEqualTo(id);
        assertThat(TableId.prefixOf("ns1").contains(MetaKey.of("tbl/ns10/t"))).isFalse();
        assertThatThrownBy(() -> TableId.fromKey(MetaKey.of("ops/a/b"))).isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> TableId.of(null, "x")).isInstanceOf(InvalidArgumentException.class);
    }

    @Test
    void specs_rejectBlankLocationsAndFormats_andNullProperties() {
        assertThatThrownBy(() -> TableSpec.of("", "iceberg"))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("location");
        assertThatThrownBy(() -> TableSpec.of("s3://x", " "))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("format");
        assertThatThrownBy(() -> TableSpec.of("s3://x", "d").withProperty("k", null))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("'k'");
        assertThatThrownBy(() -> TableSpec.of("s3://x", "d").withProperty("", "v"))
                .isInstanceOf(InvalidArgumentException.class);
    }
}
