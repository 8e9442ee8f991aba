package io.lake.meta.testkit.counter;

import static org.assertj.core.api.Assertions.assertThat;

import io.lake.meta.MetaKey;
import io.lake.meta.OutcomeUnknownException;
import io.lake.meta.counter.MonotonicCounter;
import io.lake.meta.testkit.FaultyStore;
import io.lake.meta.testkit.FaultyStore.Call;
import io.lake.meta.testkit.FaultyStore.Fault;
import io.lake.meta.testkit.InMemoryMetaStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code add(delta)} promises to move the counter by {@code delta} with one write, and "nothing
 * moved" when it gives up. When its write's answer is lost and another writer moves the counter
 * before the re-read, the re-read cannot tell whether the add applied: a second write is a guess
 * that, if the first applied, moves the counter twice. (For {@code nextRange} that guess is safe:
 * values are only skipped.) The unprovable answer must be an {@link OutcomeUnknownException}.
 */
class CounterAddLostAnswerTest {

    private static final MetaKey KEY = MetaKey.of("counter/bytes-written");

    private final InMemoryMetaStore store = InMemoryMetaStore.create();

    @AfterEach
    void close() {
        store.close();
    }

    @Test
    void add_whoseLostWriteAppliedAndWasPassed_doesNotMoveTheCounterTwice() {
        FaultyStore losing = FaultyStore.over(store);
        MonotonicCounter counter =
                MonotonicCounter.builder().store(losing).key(KEY).build();
        MonotonicCounter other =
                MonotonicCounter.builder().store(store).key(KEY).build();
        long before = counter.get();
        losing.failNext(
                Call.APPLY,
                Fault.ANSWER_LOST.meanwhile(other::next)); // the add applies; another writer takes one value

        long after;
        try {
            after = counter.add(5);
        } catch (OutcomeUnknownException e) {
            after = -1; // honest: the caller knows the add may have applied
        }

        assertThat(counter.get())
                .as("add(5) answered %s; the counter moved from %s", after, before)
                .isEqualTo(before + 5 + 1);
    }
}
