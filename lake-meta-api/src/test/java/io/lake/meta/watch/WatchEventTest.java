package io.lake.meta.watch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.InvalidArgumentException;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaValue;
import org.junit.jupiter.api.Test;

class WatchEventTest {

    private static final MetaKey KEY = MetaKey.of("tbl/ns1/a");
    private static final MetaValue VALUE = MetaValue.utf8("v");

    @Test
    void eachKindSaysWhatItIs() {
        assertThat(WatchEvent.initial(KEY, VALUE)).satisfies(e -> {
            assertThat(e.isInitial()).isTrue();
            assertThat(e.isDeletion()).isFalse();
            assertThat(e.value()).contains(VALUE);
            assertThat(e).hasToString("initial tbl/ns1/a = \"v\"");
        });
        assertThat(WatchEvent.changed(KEY, MetaValue.empty())).satisfies(e -> {
            assertThat(e.isInitial()).isFalse();
            assertThat(e.isDeletion()).as("the empty value is a value").isFalse();
            assertThat(e.value()).contains(MetaValue.empty());
        });
        assertThat(WatchEvent.deleted(KEY)).satisfies(e -> {
            assertThat(e.isDeletion()).isTrue();
            assertThat(e.value()).isEmpty();
            assertThat(e.key()).isEqualTo(KEY);
            assertThat(e).hasToString("deleted tbl/ns1/a");
        });
    }

    @Test
    void equality_coversKeyValueAndKind() {
        assertThat(WatchEvent.changed(KEY, VALUE))
                .isEqualTo(WatchEvent.changed(KEY, MetaValue.utf8("v")))
                .hasSameHashCodeAs(WatchEvent.changed(KEY, MetaValue.utf8("v")))
                .isNotEqualTo(WatchEvent.initial(KEY, VALUE))
                .isNotEqualTo(WatchEvent.changed(KEY, MetaValue.utf8("w")))
                .isNotEqualTo(WatchEvent.deleted(KEY));
    }

    @Test
    void nullArguments_areInvalidArguments() {
        assertThatThrownBy(() -> WatchEvent.changed(null, VALUE)).isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> WatchEvent.changed(KEY, null))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("WatchEvent.deleted");
        assertThatThrownBy(() -> WatchEvent.initial(KEY, null)).isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> WatchEvent.deleted(null)).isInstanceOf(InvalidArgumentException.class);
    }
}
