package io.lake.meta.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.lake.meta.GuardedMutation;
import io.lake.meta.GuardedResult;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaValue;
import io.lake.meta.Mutation;
import io.lake.meta.Transaction;
import io.lake.meta.TransactionFailure;
import io.lake.meta.TransactionResult;
import io.lake.meta.WriteResult;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/**
 * Part of {@link MetaStoreSuite}: writers started together, unordered, on every backend. Each
 * test runs {@link #ROUNDS} rounds of two competing operations released by one latch and checks
 * that the answers and the final contents agree with one of the two serial orders. These tests
 * prove no interleaving (the race tests of {@link RaceContract} do, by holding a commit); they are
 * what a backend declared without {@link Capability#RACE_HOOKS} is still held to.
 */
@ContractGroup("concurrent writes")
abstract class ConcurrentWriteContract extends ModelEquivalenceContract {

    /** Rounds per test: enough for the two writers to meet in most runs, few enough to stay fast. */
    static final int ROUNDS = 20;

    private final MetaValue v0 = value("v0");
    private final MetaValue vA = value("vA");
    private final MetaValue vB = value("vB");

    /** Runs {@code a} and {@code b} on two threads released together, and returns both answers. */
    private <A, B> Answers<A, B> together(Callable<A> a, Callable<B> b) throws Exception {
        CountDownLatch go = new CountDownLatch(1);
        Racer<A> first = Racer.start(
                "first",
                () -> {
                    go.await();
                    return a.call();
                },
                raceHookTimeout());
        Racer<B> second = Racer.start(
                "second",
                () -> {
                    go.await();
                    return b.call();
                },
                raceHookTimeout());
        go.countDown();
        return new Answers<>(first.result(), second.result());
    }

    private record Answers<A, B>(A first, B second) {}

    @Test
    void twoCreatorsOfOneKey_exactlyOneApplies_theOtherConflictsWithItsValue() throws Exception {
        for (int round = 0; round < ROUNDS; round++) {
            MetaKey k = key("tbl/create/" + round);
            Answers<WriteResult, WriteResult> answers = together(() -> store.create(k, vA), () -> store.create(k, vB));

            boolean aWon = answers.first().isApplied();
            assertThat(answers.first().isApplied() ^ answers.second().isApplied())
                    .as("round %d: exactly one create applies, got %s", round, answers)
                    .isTrue();
            WriteResult loser = aWon ? answers.second() : answers.first();
            assertThat(loser)
                    .as("round %d: the loser", round)
                    .isEqualTo(WriteResult.conflict(Optional.of(aWon ? vA : vB)));
            assertThat(store.get(k)).as("round %d", round).contains(aWon ? vA : vB);
        }
    }

    @Test
    void twoUpdatersFromTheSameBytes_exactlyOneApplies_theOtherConflictsWithItsValue() throws Exception {
        for (int round = 0; round < ROUNDS; round++) {
            MetaKey k = key("tbl/update/" + round);
            store.create(k, v0);
            Answers<WriteResult, WriteResult> answers =
                    together(() -> store.update(k, v0, vA), () -> store.update(k, v0, vB));

            boolean aWon = answers.first().isApplied();
            assertThat(answers.first().isApplied() ^ answers.second().isApplied())
                    .as("round %d: exactly one update applies, got %s", round, answers)
                    .isTrue();
            assertThat(aWon ? answers.second() : answers.first())
                    .as("round %d: the loser", round)
                    .isEqualTo(WriteResult.conflict(Optional.of(aWon ? vA : vB)));
            assertThat(store.get(k)).as("round %d", round).contains(aWon ? vA : vB);
        }
    }

    @Test
    void aGuardedWriteAndTheGuardsReplacement_theWriteAppliesOnlyBeforeTheReplacement() throws Exception {
        MetaValue leaseA = value("{\"holder\":\"a\",\"epoch\":1}");
        MetaValue leaseB = value("{\"holder\":\"b\",\"epoch\":2}");
        for (int round = 0; round < ROUNDS; round++) {
            MetaKey guard = key("lease/guard-" + round);
            MetaKey target = key("tbl/guarded/" + round);
            store.create(guard, leaseA);
            store.create(target, v0);
            Answers<GuardedResult, WriteResult> answers = together(
                    () -> store.applyGuarded(new GuardedMutation(guard, leaseA, Mutation.update(target, v0, vA))),
                    () -> store.update(guard, leaseA, leaseB));

            assertThat(answers.second()).as("round %d: the replacement", round).isEqualTo(WriteResult.applied());
            assertThat(answers.first().outcome())
                    .as("round %d: the guarded write", round)
                    .isIn(GuardedResult.Outcome.APPLIED, GuardedResult.Outcome.GUARD_REJECTED);
            assertThat(store.get(target))
                    .as("round %d: the target moved only if the write applied", round)
                    .contains(answers.first().isApplied() ? vA : v0);
            assertThat(store.get(guard)).contains(leaseB);
        }
    }

    @Test
    void aRenameAndAWriterOfTheOldKey_exactlyOneApplies_andNothingIsHalfMoved() throws Exception {
        for (int round = 0; round < ROUNDS; round++) {
            MetaKey k = key("tbl/rename/" + round);
            MetaKey renamed = key("tbl/renamed/" + round);
            store.create(k, v0);
            Answers<TransactionResult, WriteResult> answers = together(
                    () -> store.transact(Transaction.builder()
                            .delete(k, v0)
                            .create(renamed, v0)
                            .build()),
                    () -> store.update(k, v0, vA));

            if (answers.first().isApplied()) {
                assertThat(answers.second())
                        .as("round %d: the writer after the rename", round)
                        .isEqualTo(WriteResult.conflict(Optional.empty()));
                assertThat(store.get(k)).as("round %d", round).isEmpty();
                assertThat(store.get(renamed)).as("round %d", round).contains(v0);
            } else {
                assertThat(answers.second())
                        .as("round %d: the writer, when the rename failed", round)
                        .isEqualTo(WriteResult.applied());
                assertThat(answers.first().failures())
                        .as("round %d: the rename after the writer", round)
                        .containsExactly(TransactionFailure.found(k, Optional.of(vA)));
                assertThat(store.get(k)).as("round %d", round).contains(vA);
                assertThat(store.get(renamed)).as("round %d", round).isEmpty();
            }
        }
    }
}
