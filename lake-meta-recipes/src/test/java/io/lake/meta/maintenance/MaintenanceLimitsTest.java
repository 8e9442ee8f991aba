package io.lake.meta.maintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.InvalidArgumentException;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class MaintenanceLimitsTest {

    private static final Map<String, String> NONE = Map.of();

    @Test
    void defaults_areSixtySecondsAndAHundred() {
        assertThat(MaintenanceLimits.fromSettings(NONE, NONE)).isEqualTo(MaintenanceLimits.defaults());
        assertThat(MaintenanceLimits.defaults().interval()).isEqualTo(Duration.ofSeconds(60));
        assertThat(MaintenanceLimits.defaults().pageSize()).isEqualTo(100);
    }

    @Test
    void environment_beatsTheDefaults_andOptionsBeatTheEnvironment() {
        Map<String, String> env = Map.of(
                MaintenanceLimits.INTERVAL_ENV, "5m", MaintenanceLimits.PAGE_SIZE_ENV, "500", "PATH", "/usr/bin");

        assertThat(MaintenanceLimits.fromSettings(env, NONE))
                .isEqualTo(MaintenanceLimits.of(Duration.ofMinutes(5), 500));
        assertThat(MaintenanceLimits.fromSettings(env, Map.of("page-size", "20")))
                .isEqualTo(MaintenanceLimits.of(Duration.ofMinutes(5), 20));
        assertThat(MaintenanceLimits.fromSettings(env, Map.of("interval", "PT30S", "page-size", "10000")))
                .isEqualTo(MaintenanceLimits.of(Duration.ofSeconds(30), 10_000));
    }

    @ParameterizedTest
    @ValueSource(strings = {"500ms", "30s", "5m", "2h", "1d", "PT1M30S", " 30s "})
    void durationsWithAUnitOrIso8601_parse(String text) {
        assertThat(MaintenanceLimits.fromSettings(Map.of(MaintenanceLimits.INTERVAL_ENV, text), NONE)
                        .interval())
                .isPositive();
    }

    @ParameterizedTest
    @ValueSource(strings = {"0s", "0", "PT0S", "-5s", "PT-1S"})
    void zeroAndNegativeIntervals_areRejected_namingTheSource(String text) {
        assertThatThrownBy(() -> MaintenanceLimits.fromSettings(Map.of(MaintenanceLimits.INTERVAL_ENV, text), NONE))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining(MaintenanceLimits.INTERVAL_ENV);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "  ", "soon", "30", "30 s", "30sec", "1.5s", "99999999999999999999s", "1y"})
    void malformedIntervals_areRejected(String text) {
        assertThatThrownBy(() -> MaintenanceLimits.fromSettings(NONE, Map.of("interval", text)))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("--interval");
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "-1", "10001", "2147483648", "ten", "", "1e3", "10.5"})
    void pageSizesOutOfRangeOrMalformed_areRejected(String text) {
        assertThatThrownBy(() -> MaintenanceLimits.fromSettings(Map.of(MaintenanceLimits.PAGE_SIZE_ENV, text), NONE))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining(MaintenanceLimits.PAGE_SIZE_ENV);
    }

    @Test
    void theRangeMessage_saysWhatIsAllowed() {
        assertThatThrownBy(() -> MaintenanceLimits.fromSettings(NONE, Map.of("page-size", "20000")))
                .hasMessage("--page-size 20000 is out of range: use 1 to 10000 (the store's page limit)");
        assertThatThrownBy(() -> MaintenanceLimits.of(Duration.ZERO, 10))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("must be positive");
        assertThatThrownBy(() -> MaintenanceLimits.of(Duration.ofSeconds(1), 0))
                .isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> MaintenanceLimits.of(null, 10)).isInstanceOf(InvalidArgumentException.class);
    }

    @Test
    void anUnknownOption_isRejected() {
        assertThatThrownBy(() -> MaintenanceLimits.fromSettings(NONE, Map.of("pagesize", "10")))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("unknown maintenance option 'pagesize'");
    }

    @Test
    void aBadValue_failsBeforeASweeperIsBuilt() {
        assertThatThrownBy(() -> MaintenanceSweeper.builder()
                        .limits(MaintenanceLimits.fromSettings(Map.of(MaintenanceLimits.PAGE_SIZE_ENV, "0"), NONE)))
                .isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> MaintenanceSweeper.builder().build()).isInstanceOf(IllegalStateException.class);
    }
}
