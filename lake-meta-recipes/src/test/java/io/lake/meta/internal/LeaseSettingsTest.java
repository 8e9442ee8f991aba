package io.lake.meta.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.InvalidArgumentException;
import java.time.Duration;
import java.util.function.BiConsumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The one rule set of every lease option, and the defaults and combination checks at build. */
class LeaseSettingsTest {

    static Stream<Arguments> durationOptions() {
        return Stream.of(
                Arguments.of("leaseDuration", (BiConsumer<LeaseSettings, Duration>) LeaseSettings::leaseDuration),
                Arguments.of("safetyMargin", (BiConsumer<LeaseSettings, Duration>) LeaseSettings::safetyMargin),
                Arguments.of("renewInterval", (BiConsumer<LeaseSettings, Duration>) LeaseSettings::renewInterval),
                Arguments.of("retryInterval", (BiConsumer<LeaseSettings, Duration>) LeaseSettings::retryInterval));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("durationOptions")
    void everyDuration_isCappedAt365Days_andSetOnce(String name, BiConsumer<LeaseSettings, Duration> set) {
        LeaseSettings settings = new LeaseSettings();
        assertThatThrownBy(() -> set.accept(settings, Duration.ofDays(365).plusNanos(1)))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessage(name + " must be at most 365 days, got "
                        + Duration.ofDays(365).plusNanos(1));
        assertThatThrownBy(() -> set.accept(settings, null))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessage(name + " must not be null");
        set.accept(settings, Duration.ofDays(365)); // a refused value left the option unset
        assertThatThrownBy(() -> set.accept(settings, Duration.ofSeconds(1)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage(name + " was already set");
    }

    @Test
    void lowerBounds_ofEachDuration() {
        assertThatThrownBy(() -> new LeaseSettings().leaseDuration(Duration.ofNanos(999_999)))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("at least 1 ms");
        assertThatThrownBy(() -> new LeaseSettings().safetyMargin(Duration.ofNanos(-1)))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("must not be negative");
        assertThatThrownBy(() -> new LeaseSettings().renewInterval(Duration.ZERO))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("must be positive");
        assertThatThrownBy(() -> new LeaseSettings().retryInterval(Duration.ZERO))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("must be positive");
    }

    @Test
    void defaults_andTheCombination_atBuild() {
        LeaseSettings settings = new LeaseSettings();
        assertThatThrownBy(settings::leaseDuration)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("leaseDuration is required");
        settings.leaseDuration(Duration.ofSeconds(30));
        assertThat(settings.marginFor("a leader")).isEqualTo(Duration.ZERO);
        assertThat(settings.renewIntervalFor("a leader")).isEqualTo(Duration.ofSeconds(10));
        assertThat(settings.retryIntervalOr(Duration.ofSeconds(10))).isEqualTo(Duration.ofSeconds(10));
        assertThat(settings.scheduler()).isNull();

        settings.safetyMargin(Duration.ofSeconds(25));
        assertThatThrownBy(() -> settings.renewIntervalFor("a hold"))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining(
                        "renewInterval PT10S must be shorter than leaseDuration minus safetyMargin (PT5S)")
                .hasMessageContaining("a hold's lease expires");

        LeaseSettings marginTooLong = new LeaseSettings();
        marginTooLong.leaseDuration(Duration.ofSeconds(1));
        marginTooLong.safetyMargin(Duration.ofSeconds(1));
        assertThatThrownBy(() -> marginTooLong.marginFor("a holder"))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessageContaining("a holder would never trust its own lease");
    }

    @Test
    void id_isOneTo256Characters_notBlank() {
        assertThat(LeaseSettings.id("node-a", "holderId")).isEqualTo("node-a");
        assertThat(LeaseSettings.id("x".repeat(256), "holderId")).hasSize(256);
        for (String bad : new String[] {"", " ", "x".repeat(257)}) {
            assertThatThrownBy(() -> LeaseSettings.id(bad, "holderId"))
                    .isInstanceOf(InvalidArgumentException.class)
                    .hasMessageStartingWith("holderId must be 1 to 256 characters and not blank");
        }
        assertThatThrownBy(() -> LeaseSettings.id(null, "candidateId"))
                .isInstanceOf(InvalidArgumentException.class)
                .hasMessage("candidateId must not be null");
    }
}
