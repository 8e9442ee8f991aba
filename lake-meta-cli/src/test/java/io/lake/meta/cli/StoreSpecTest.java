package io.lake.meta.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.TypeConversionException;

class StoreSpecTest {

    @Test
    void parse_rocksDirectory() {
        assertThat(StoreSpec.parse("rocks:/var/lib/meta")).isEqualTo(new RocksStoreSpec(Path.of("/var/lib/meta")));
        assertThat(StoreSpec.parse("rocks:relative/dir")).isEqualTo(new RocksStoreSpec(Path.of("relative/dir")));
    }

    @Test
    void parse_keepsColonsInTheLocation() {
        assertThat(StoreSpec.parse("rocks:a:b")).isEqualTo(new RocksStoreSpec(Path.of("a:b")));
    }

    @Test
    void parse_unknownScheme() {
        assertThatThrownBy(() -> StoreSpec.parse("etcd:localhost"))
                .isInstanceOf(TypeConversionException.class)
                .hasMessage("unknown store scheme 'etcd' in 'etcd:localhost': the supported scheme is rocks:DIR");
    }

    @Test
    void parse_noScheme() {
        assertThatThrownBy(() -> StoreSpec.parse("meta-db"))
                .isInstanceOf(TypeConversionException.class)
                .hasMessageStartingWith("'meta-db' names no store scheme");
        assertThatThrownBy(() -> StoreSpec.parse(":meta-db"))
                .isInstanceOf(TypeConversionException.class)
                .hasMessageStartingWith("':meta-db' names no store scheme");
    }

    @Test
    void parse_noLocation() {
        assertThatThrownBy(() -> StoreSpec.parse("rocks:"))
                .isInstanceOf(TypeConversionException.class)
                .hasMessage("'rocks:' names no location: write rocks:DIR");
    }
}
