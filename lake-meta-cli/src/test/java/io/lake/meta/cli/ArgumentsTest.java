package io.lake.meta.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ArgumentsTest {

    @Test
    void text_passesThroughUnderUtf8() {
        assertThat(Arguments.text("caf\u00e9", "VALUE", "UTF-8")).isEqualTo("caf\u00e9");
        assertThat(Arguments.text("a\uFFFDb", "VALUE", "UTF-8")).isEqualTo("a\uFFFDb");
    }

    @Test
    void text_asciiPassesUnderAnyLocale() {
        assertThat(Arguments.text("tbl/sales/orders", "KEY", "ANSI_X3.4-1968")).isEqualTo("tbl/sales/orders");
    }

    @Test
    void text_replacementCharacterUnderNonUtf8Locale_isAUsageError() {
        assertThatThrownBy(() -> Arguments.text("caf\uFFFD\uFFFD", "VALUE", "ANSI_X3.4-1968"))
                .isInstanceOf(UsageException.class)
                .hasMessage("VALUE holds U+FFFD: the JVM decoded the command line as ANSI_X3.4-1968, so its"
                        + " non-ASCII characters were lost; run under a UTF-8 locale (for example LANG=C.UTF-8)"
                        + " or pass the value with --hex or --base64");
        assertThatThrownBy(() -> Arguments.text("tbl/caf\uFFFD", "KEY", "no-such-charset"))
                .isInstanceOf(UsageException.class)
                .hasMessageEndingWith("(for example LANG=C.UTF-8)");
    }
}
