package io.lake.meta.testkit.counter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.StoreUnavailableException;
import io.lake.meta.counter.CounterRange;
import io.lake.meta.counter.MonotonicCounter;
import io.lake.meta.testkit.ContractGroup;
import io.lake.meta.testkit.FaultyStore;
import io.lake.meta.testkit.FaultyStore.Call;
import io.lake.meta.testkit.FaultyStore.Fault;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Part of {@link CounterSuite}: lost answers. */
@ContractGroup("lost answers")
abstract class CounterLostAnswersContract extends CounterContentionContract {

    @Test
    void lostAnswer_ofAnAppliedWrite_isRecognisedByItsBytes_andItsValuesHandedOut() {
        FaultyStore network = FaultyStore.over(store);
        MonotonicCounter counter = counter(network, b -> b);
        network.failNext(Call.WRITE, Fault.ANSWER_LOST);

        assertThat(counter.nextRange(10)).isEqualTo(new CounterRange(1, 10));
        assertThat(counter.next()).as("no gap: the lost write was ours").isEqualTo(11);
    }

    @Test
    void lostAnswer_ofAWriteThatNeverArrived_claimsTheSameValuesAgain() {
        FaultyStore network = FaultyStore.over(store);
        MonotonicCounter counter = counter(network, b -> b);
        counter.next();
        network.failNext(Call.WRITE, Fault.NEVER_ARRIVED);

        assertThat(counter.next())
                .as("2 was never handed out: claiming it again is no repeat")
                .isEqualTo(2);
        assertThat(storedNext()).isEqualTo(3);
    }

    /**
     * A's write never arrived; meanwhile B took the same value, leaving a record with the same
     * {@code next} A would have written. A must not take B's write for its own.
     */
    @Test
    void lostAnswer_whileAnotherWriterReachedTheSameNext_isNotTakenForOurs() {
        FaultyStore network = FaultyStore.over(store);
        MonotonicCounter a = counter(network, x -> x);
        MonotonicCounter b = counter();
        List<Long> valuesOfB = new ArrayList<>();
        network.failNext(Call.APPLY, Fault.NEVER_ARRIVED.meanwhile(() -> valuesOfB.add(b.next())));

        long valueOfA = a.next();

        assertThat(valuesOfB).containsExactly(1L);
        assertThat(valueOfA).isEqualTo(2);
    }

    /** A's write applied, then B moved past it before A could re-read: A cannot tell, so A's values are skipped. */
    @Test
    void lostAnswer_ofAnAppliedWrite_thenOvertaken_skipsItsValues() {
        FaultyStore network = FaultyStore.over(store);
        MonotonicCounter a = counter(network, x -> x);
        MonotonicCounter b = counter();
        List<Long> valuesOfB = new ArrayList<>();
        network.failNext(Call.APPLY, Fault.ANSWER_LOST.meanwhile(() -> valuesOfB.add(b.next())));

        long valueOfA = a.next();

        assertThat(valuesOfB).containsExactly(2L);
        assertThat(valueOfA)
                .as("1 may be A's, but A cannot prove it: it is skipped")
                .isEqualTo(3);
    }

    @Test
    void lostAnswer_whoseReReadFails_handsOutNothing_andTheValueIsSkipped() {
        FaultyStore network = FaultyStore.over(store);
        MonotonicCounter counter = counter(network, b -> b);
        network.failNext(Call.APPLY, Fault.ANSWER_LOST.meanwhile(() -> network.failNext(Call.GET, Fault.UNAVAILABLE)));

        assertThatThrownBy(counter::next).isInstanceOf(StoreUnavailableException.class);

        assertThat(counter.next()).isEqualTo(2);
    }

    /**
     * A client that retries a write whose answer was lost may meet its own write as a conflict
     * (the DynamoDB SDK resends a conditional put). The conflict carries the caller's own bytes,
     * which prove the write applied: its values are handed out, none skipped.
     */
    @Test
    void aConflictReportingOurOwnBytes_meansOurWriteApplied() {
        MonotonicCounter counter = counter(FaultyStore.over(store).failNext(Call.APPLY, Fault.RESENT), b -> b);

        assertThat(counter.nextRange(5)).isEqualTo(new CounterRange(1, 5));
        assertThat(storedNext()).isEqualTo(6);
    }

    /**
     * Two callers interleave on one key through a network that loses answers at random
     * (applied or not), seeded so a failure reproduces: no value is ever handed out twice.
     */
    @Test
    void randomLostAnswers_neverLeadToAValueHandedOutTwice() {
        Random random = new Random(20_260_101L);
        FaultyStore networkA = FaultyStore.over(store);
        FaultyStore networkB = FaultyStore.over(store);
        List<MonotonicCounter> callers = List.of(counter(networkA, b -> b), counter(networkB, b -> b));
        List<FaultyStore> networks = List.of(networkA, networkB);
        Set<Long> handedOut = new HashSet<>();
        long highest = 0;
        for (int step = 0; step < 120; step++) {
            int who = random.nextInt(2);
            int roll = random.nextInt(4);
            if (roll == 0) {
                networks.get(who).failNext(Call.WRITE, Fault.ANSWER_LOST);
            } else if (roll == 1) {
                networks.get(who).failNext(Call.WRITE, Fault.NEVER_ARRIVED);
            }
            CounterRange range = callers.get(who).nextRange(1 + random.nextInt(5));
            assertThat(range.first()).as("step %d: values only increase", step).isGreaterThan(highest);
            range.values()
                    .forEach(v -> assertThat(handedOut.add(v))
                            .as("value %d handed out twice", v)
                            .isTrue());
            highest = range.last();
        }
        assertThat(storedNext()).isGreaterThan(highest);
    }
}
