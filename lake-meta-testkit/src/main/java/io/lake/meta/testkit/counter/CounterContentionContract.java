package io.lake.meta.testkit.counter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.counter.CounterContentionException;
import io.lake.meta.counter.MonotonicCounter;
import io.lake.meta.testkit.ContractGroup;
import io.lake.meta.testkit.PausePoints;
import io.lake.meta.testkit.lease.InFlightHooks;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** Part of {@link CounterSuite}: contention. */
@ContractGroup("contention")
abstract class CounterContentionContract extends CounterErrorsContract {

    /** A read the record and is held before its write; B takes a value; A's write conflicts and A retries. */
    @Test
    void aRaceLostBetweenReadAndWrite_isRetried_pastTheWinnersValue() throws Exception {
        PausePoints points = new PausePoints();
        MonotonicCounter a = counter(new InFlightHooks(store, points), x -> x);
        MonotonicCounter b = counter();
        a.next(); // 1: the record exists
        ExecutorService nodeA = Executors.newSingleThreadExecutor();
        try {
            PausePoints.Pause pause = points.arm(InFlightHooks.BEFORE_WRITE);
            Future<Long> raceA = nodeA.submit(a::next);
            pause.awaitArrival(); // A read next = 2 and is about to claim it
            assertThat(b.next()).isEqualTo(2);
            pause.release();

            assertThat(raceA.get()).isEqualTo(3);
            assertThat(storedNext()).isEqualTo(4);
        } finally {
            nodeA.shutdownNow();
        }
    }

    @Test
    void everyAttemptLost_raisesContention_afterExactlyMaxAttempts_handingOutNothing() {
        MonotonicCounter rival = counter();
        ConflictsEveryWrite hot = new ConflictsEveryWrite(store, rival::next);
        MonotonicCounter counter = counter(hot, b -> b.maxAttempts(3));

        assertThatThrownBy(counter::next)
                .isInstanceOf(CounterContentionException.class)
                .hasMessageContaining("3 compare-and-set attempts")
                .satisfies(e ->
                        assertThat(((CounterContentionException) e).retryable()).isTrue());

        assertThat(hot.writes()).isEqualTo(3);
        assertThat(storedNext()).as("only the rival's three values were taken").isEqualTo(4);
        assertThat(rival.next()).isEqualTo(4);
    }

    @Test
    void concurrentCallers_neverGetTheSameValue() throws Exception {
        int threads = 4;
        int callsEach = 25;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<List<Long>>> results = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                boolean ranges = t % 2 == 0;
                MonotonicCounter counter = counter(store, b -> b.maxAttempts(10_000));
                results.add(pool.submit(() -> takeValues(counter, callsEach, ranges)));
            }
            List<Long> all = new ArrayList<>();
            for (Future<List<Long>> r : results) {
                List<Long> mine = r.get();
                assertThat(mine).as("each caller sees increasing values").isSorted();
                all.addAll(mine);
            }

            assertThat(all).doesNotHaveDuplicates();
            assertThat(all).hasSize(threads / 2 * callsEach * 3 + threads / 2 * callsEach);
            assertThat(storedNext()).isEqualTo(all.size() + 1L);
        } finally {
            pool.shutdownNow();
        }
    }

    private List<Long> takeValues(MonotonicCounter counter, int calls, boolean ranges) {
        List<Long> values = new ArrayList<>();
        for (int i = 0; i < calls; i++) {
            if (ranges) {
                counter.nextRange(3).values().forEach(values::add);
            } else {
                values.add(counter.next());
            }
        }
        return values;
    }
}
