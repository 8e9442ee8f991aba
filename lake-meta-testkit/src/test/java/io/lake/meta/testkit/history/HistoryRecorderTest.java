package io.lake.meta.testkit.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.GuardedMutation;
import io.lake.meta.GuardedResult;
import io.lake.meta.InvalidArgumentException;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.Mutation;
import io.lake.meta.OutcomeUnknownException;
import io.lake.meta.StoreUnavailableException;
import io.lake.meta.WriteResult;
import io.lake.meta.testkit.FaultyStore;
import io.lake.meta.testkit.FaultyStore.Call;
import io.lake.meta.testkit.FaultyStore.Fault;
import io.lake.meta.testkit.InMemoryMetaStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The recorder around real stores: what it records, and the checker on what it recorded. */
class HistoryRecorderTest {

    private static final MetaKey X = MetaKey.of("t/x");
    private static final MetaKey G = MetaKey.of("lease/g");

    private final InMemoryMetaStore model = InMemoryMetaStore.create();
    private final HistoryRecorder recorder = new HistoryRecorder();

    @AfterEach
    void closeModel() {
        model.close();
    }

    @Test
    void recordsEachCallWithItsAnswer_inAnswerOrder_withOrderedTimes() {
        MetaStore store = recorder.recording(model);
        store.create(X, MetaValue.utf8("a"));
        store.get(X);
        store.update(X, MetaValue.utf8("stale"), MetaValue.utf8("b"));
        store.create(G, MetaValue.utf8("g"));
        store.applyGuarded(new GuardedMutation(G, MetaValue.utf8("other"), Mutation.delete(X, MetaValue.utf8("a"))));

        List<Operation> ops = recorder.history().operations();
        assertThat(ops)
                .extracting(Operation::outcome)
                .containsExactly(
                        new Outcome.Written(WriteResult.applied()),
                        new Outcome.Read(Optional.of(MetaValue.utf8("a"))),
                        new Outcome.Written(WriteResult.conflict(Optional.of(MetaValue.utf8("a")))),
                        new Outcome.Written(WriteResult.applied()),
                        new Outcome.GuardedWritten(GuardedResult.guardRejected()));
        assertThat(ops).extracting(Operation::id).containsExactly(0, 1, 2, 3, 4);
        for (int i = 1; i < ops.size(); i++) {
            assertThat(ops.get(i).invokedAt()).isGreaterThan(ops.get(i - 1).answeredAt());
        }
        assertThat(ops.get(0).client()).isEqualTo(Thread.currentThread().getName());
    }

    @Test
    void anUnknownOutcome_andARefusal_areRecorded_andRethrown() {
        FaultyStore failing = FaultyStore.over(model);
        MetaStore store = recorder.recording(failing);
        failing.failNext(Call.APPLY, Fault.thrown(new OutcomeUnknownException("lost", null)));
        assertThatThrownBy(() -> store.create(X, MetaValue.utf8("a"))).isInstanceOf(OutcomeUnknownException.class);
        failing.failNext(Call.APPLY, Fault.thrown(new StoreUnavailableException("throttled")));
        assertThatThrownBy(() -> store.create(X, MetaValue.utf8("a"))).isInstanceOf(StoreUnavailableException.class);
        failing.failNext(Call.APPLY, Fault.thrown(new IllegalStateException("a bug")));
        assertThatThrownBy(() -> store.create(X, MetaValue.utf8("a"))).isInstanceOf(IllegalStateException.class);

        assertThat(recorder.history().operations())
                .extracting(Operation::outcome)
                .containsExactly(
                        new Outcome.Unknown("OutcomeUnknownException"),
                        new Outcome.NotApplied("StoreUnavailableException"),
                        new Outcome.Unknown("unexpected java.lang.IllegalStateException: a bug"));
        assertThat(recorder.history().unknownOutcomes()).isEqualTo(2);
    }

    @Test
    void closingTheRecordingView_leavesTheStoreOpen() {
        recorder.recording(model).close();
        assertThat(model.get(X)).isEmpty();
    }

    @Test
    void concurrentClientsOfALinearizableStore_recordALinearizableHistory() throws Exception {
        model.create(G, MetaValue.utf8("g0"));
        MetaStore store = recorder.recording(model);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        AtomicInteger unique = new AtomicInteger();
        try {
            List<Future<?>> clients = new ArrayList<>();
            for (int c = 0; c < 4; c++) {
                Random random = new Random(c);
                clients.add(pool.submit(() -> {
                    for (int i = 0; i < 150; i++) {
                        MetaKey key = MetaKey.of("t/k" + random.nextInt(3));
                        Optional<MetaValue> seen = store.get(key);
                        MetaValue next = MetaValue.utf8("v" + unique.incrementAndGet());
                        int choice = random.nextInt(3);
                        if (seen.isEmpty()) {
                            store.create(key, next);
                        } else if (choice == 0) {
                            store.delete(key, seen.get());
                        } else if (choice == 1) {
                            store.update(key, seen.get(), next);
                        } else {
                            store.applyGuarded(new GuardedMutation(
                                    G, store.get(G).orElseThrow(), Mutation.update(key, seen.get(), next)));
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : clients) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        CheckResult result = new LinearizabilityChecker().check(recorder.history(), Map.of(G, MetaValue.utf8("g0")));
        assertThat(result.isLinearizable()).as(result.toString()).isTrue();
        assertThat(result.operationsChecked()).isGreaterThan(1000);
    }

    @Test
    void aStoreThatAppliesAWriteButSaysNothingApplied_isCaught() {
        FaultyStore failing = FaultyStore.over(model);
        MetaStore store = recorder.recording(failing);
        store.create(X, MetaValue.utf8("a"));
        failing.failNext(
                Call.APPLY,
                Fault.thrownAfterSending(new StoreUnavailableException("InternalServerError; nothing was applied")));
        assertThatThrownBy(() -> store.update(X, MetaValue.utf8("a"), MetaValue.utf8("b")))
                .isInstanceOf(StoreUnavailableException.class);
        store.get(X);

        CheckResult result = new LinearizabilityChecker().check(recorder.history(), Map.of());
        assertThat(result.verdict()).as(result.toString()).isEqualTo(CheckResult.Verdict.NOT_LINEARIZABLE);
        assertThat(result.explanation()).contains("get(t/x) -> \"b\"");
    }

    @Test
    void theSameStoreSayingTheOutcomeIsUnknown_isLinearizable() {
        FaultyStore failing = FaultyStore.over(model);
        MetaStore store = recorder.recording(failing);
        store.create(X, MetaValue.utf8("a"));
        failing.failNext(
                Call.APPLY,
                Fault.thrownAfterSending(
                        new OutcomeUnknownException("InternalServerError; may or may not have applied", null)));
        assertThatThrownBy(() -> store.update(X, MetaValue.utf8("a"), MetaValue.utf8("b")))
                .isInstanceOf(OutcomeUnknownException.class);
        store.get(X);

        CheckResult result = new LinearizabilityChecker().check(recorder.history(), Map.of());
        assertThat(result.isLinearizable()).as(result.toString()).isTrue();
    }

    @Test
    void nullArguments_reachTheStoreUnrecorded() {
        MetaStore store = recorder.recording(model);
        assertThatThrownBy(() -> store.get(null)).isInstanceOf(InvalidArgumentException.class);
        assertThat(recorder.history().size()).isZero();
    }
}
