package io.lake.meta.testkit.counter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.lake.meta.InvalidArgumentException;
import io.lake.meta.MetaKey;
import io.lake.meta.counter.CounterExhaustedException;
import io.lake.meta.counter.CounterRange;
import io.lake.meta.counter.MonotonicCounter;
import io.lake.meta.testkit.ContractGroup;
import io.lake.meta.testkit.lease.CountingMetaStore;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Part of {@link CounterSuite}: values. */
@ContractGroup("values")
abstract class CounterValuesContract extends CounterSupport {

    @Test
    void get_readsTheNextValue_withoutWriting() {
        MonotonicCounter counter = counter(store, b -> b.firstValue(10));

        assertThat(counter.get()).as("fresh key: the first value").isEqualTo(10);
        assertThat(store.get(COUNTER_KEY)).as("get writes nothing").isEmpty();
        assertThat(counter.next()).isEqualTo(10);
        assertThat(counter.get()).isEqualTo(11);
    }

    @Test
    void add_movesForward_skipsTheValues_andAnswersTheNewValue() {
        MonotonicCounter counter = counter();
        counter.next();

        assertThat(counter.add(5)).isEqualTo(7);
        assertThat(counter.get()).isEqualTo(7);
        assertThat(counter.next())
                .as("the values added over are never handed out")
                .isEqualTo(7);
        assertThatThrownBy(() -> counter.add(0)).isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> counter.add(Long.MAX_VALUE)).isInstanceOf(CounterExhaustedException.class);
        assertThat(counter.get()).as("nothing moved").isEqualTo(8);
    }

    @Test
    void next_onAnAbsentKey_startsAtOne_andIncreasesByOne() {
        MonotonicCounter counter = counter();

        assertThat(counter.next()).isEqualTo(1);
        assertThat(counter.next()).isEqualTo(2);
        assertThat(counter.next()).isEqualTo(3);
        assertThat(storedNext()).isEqualTo(4);
    }

    @Test
    void firstValue_appliesOnlyWhileTheKeyIsAbsent() {
        assertThat(counter(store, b -> b.firstValue(0)).next()).isZero();

        assertThat(counter(store, b -> b.firstValue(1_000)).next())
                .as("the record decides once it exists")
                .isEqualTo(1);
    }

    @Test
    void nextRange_handsOutConsecutiveValues_withOneReadAndOneWrite() {
        CountingMetaStore counting = new CountingMetaStore(store);
        MonotonicCounter counter = counter(counting, b -> b);

        CounterRange range = counter.nextRange(1_000);

        assertThat(range).isEqualTo(new CounterRange(1, 1_000));
        assertThat(range.last()).isEqualTo(1_000);
        assertThat(range.values()).hasSize(1_000).startsWith(1L, 2L).endsWith(1_000L);
        assertThat(counting.reads()).isEqualTo(1);
        assertThat(counting.plainWrites()).hasSize(1);
        assertThat(counter.next()).isEqualTo(1_001);
    }

    @Test
    void countersOnOneKey_shareOneSequence_andOtherKeysAreIndependent() {
        MonotonicCounter a = counter();
        MonotonicCounter b = counter();
        MonotonicCounter other = MonotonicCounter.builder()
                .store(store)
                .key(MetaKey.of("seq/other"))
                .build();

        assertThat(List.of(a.next(), b.next(), a.nextRange(3).first(), b.next(), other.next()))
                .containsExactly(1L, 2L, 3L, 6L, 1L);
    }

    /** A crashed caller's values are skipped, never handed out again: the store is the only state. */
    @Test
    void aNewCounterAfterACrash_continuesPastEverythingHandedOut() {
        CounterRange beforeCrash = counter().nextRange(50); // handed out, then the process died

        assertThat(counter().next()).isEqualTo(beforeCrash.last() + 1);
    }

    @Test
    void record_isTypedJson_withTheNextValueAndAFreshNoncePerWrite() {
        MonotonicCounter counter = counter();
        counter.next();
        JsonNode first = record();
        counter.next();
        JsonNode second = record();

        assertThat(first.get("next").isIntegralNumber()).isTrue();
        assertThat(first.get("next").asLong()).isEqualTo(2);
        assertThat(second.get("next").asLong()).isEqualTo(3);
        assertThat(first.get("nonce").asText())
                .isNotBlank()
                .isNotEqualTo(second.get("nonce").asText());
    }

    @Test
    void recordSeededByHand_withUnknownFieldsAndNoNonce_isRead() {
        seed("{\"next\":41,\"owner\":\"ops\"}");

        assertThat(counter().next()).isEqualTo(41);
        assertThat(storedNext()).isEqualTo(42);
    }
}
