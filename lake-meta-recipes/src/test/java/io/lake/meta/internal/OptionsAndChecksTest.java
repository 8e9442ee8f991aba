package io.lake.meta.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.InvalidArgumentException;
import org.junit.jupiter.api.Test;

/** The one argument check and the one set-once rule every recipe builder goes through. */
class OptionsAndChecksTest {

    @Test
    void notNull_refusesNull_withTheTypedErrorNamingTheArgument() {
        assertThat(Checks.notNull("x", "store")).isEqualTo("x");
        assertThatThrownBy(() -> Checks.notNull(null, "store"))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessage("store must not be null");
    }

    @Test
    void notNegative_refusesANegativeValue() {
        assertThat(Checks.notNegative(0, "epoch")).isZero();
        assertThatThrownBy(() -> Checks.notNegative(-1, "epoch"))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessage("epoch must be >= 0, got -1");
    }

    @Test
    void setOnce_takesAValueOnce_andRefusesASecondOrANull() {
        assertThat(Options.setOnce(null, "a", "store")).isEqualTo("a");
        assertThatThrownBy(() -> Options.setOnce("a", "b", "store"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("store was already set");
        assertThatThrownBy(() -> Options.setOnce(null, null, "store"))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessage("store must not be null");
        // a second call is the configuration mistake, whatever it passes
        assertThatThrownBy(() -> Options.setOnce("a", null, "store")).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void required_refusesAnUnsetOption_namingTheCallToMake() {
        assertThat(Options.required("a", "store")).isEqualTo("a");
        assertThatThrownBy(() -> Options.required(null, "store"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("store is required: call store(...) before build()");
    }
}
