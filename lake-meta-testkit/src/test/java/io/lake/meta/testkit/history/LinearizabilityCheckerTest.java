package io.lake.meta.testkit.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.GuardedMutation;
import io.lake.meta.GuardedResult;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaValue;
import io.lake.meta.Mutation;
import io.lake.meta.WriteResult;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;

/**
 * The checker on histories written by hand, ones that are linearizable and ones that are not,
 * so it is known to fail when it must. Times are logical: [from..to] is an operation's
 * invocation and answer.
 */
class LinearizabilityCheckerTest {

    private static final MetaKey X = MetaKey.of("t/x");
    private static final MetaKey Y = MetaKey.of("t/y");
    private static final MetaKey G = MetaKey.of("lease/g");

    private final History.Builder history = History.builder();
    private final Map<MetaKey, MetaValue> initial = new HashMap<>();

    private static MetaValue v(String text) {
        return MetaValue.utf8(text);
    }

    private void get(long from, long to, MetaKey key, String seen) {
        history.add(
                "c",
                from,
                to,
                new Call.Get(key),
                new Outcome.Read(Optional.ofNullable(seen).map(MetaValue::utf8)));
    }

    private void write(long from, long to, Mutation m, WriteResult result) {
        history.add("c", from, to, new Call.Write(m), new Outcome.Written(result));
    }

    private void write(long from, long to, Mutation m, Outcome outcome) {
        history.add("c", from, to, new Call.Write(m), outcome);
    }

    private void guarded(long from, long to, String guard, Mutation target, Outcome outcome) {
        history.add("c", from, to, new Call.Guarded(new GuardedMutation(G, v(guard), target)), outcome);
    }

    private static Outcome unknown() {
        return new Outcome.Unknown("lost answer");
    }

    private static Outcome notApplied() {
        return new Outcome.NotApplied("unavailable");
    }

    private static WriteResult conflict(String current) {
        return WriteResult.conflict(Optional.ofNullable(current).map(MetaValue::utf8));
    }

    private CheckResult check() {
        return new LinearizabilityChecker().check(history.build(), initial);
    }

    private void assertLinearizable() {
        CheckResult result = check();
        assertThat(result.isLinearizable()).as(result.toString()).isTrue();
    }

    private CheckResult assertNotLinearizable() {
        CheckResult result = check();
        assertThat(result.verdict()).as(result.toString()).isEqualTo(CheckResult.Verdict.NOT_LINEARIZABLE);
        assertThat(result.isLinearizable()).isFalse();
        return result;
    }

    /** In the Turkish locale "LINEARIZABLE".toLowerCase() has dotless i's: the verdict must not depend on it. */
    @Test
    void verdict_readsTheSameInEveryLocale() {
        Locale before = Locale.getDefault();
        try {
            Locale.setDefault(Locale.forLanguageTag("tr-TR"));
            assertThat(CheckResult.linearizable(1, 0, 0, 1).toString())
                    .startsWith("linearizable: 1 operations checked");
        } finally {
            Locale.setDefault(before);
        }
    }

    @Nested
    class DefiniteAnswers {

        @Test
        void emptyHistory_isLinearizable() {
            assertLinearizable();
        }

        @Test
        void sequentialWritesAndReads_areLinearizable() {
            write(1, 2, Mutation.create(X, v("a")), WriteResult.applied());
            get(3, 4, X, "a");
            write(5, 6, Mutation.update(X, v("a"), v("b")), WriteResult.applied());
            write(7, 8, Mutation.update(X, v("a"), v("c")), conflict("b"));
            write(9, 10, Mutation.delete(X, v("b")), WriteResult.applied());
            get(11, 12, X, null);
            write(13, 14, Mutation.delete(X, v("b")), conflict(null));
            assertLinearizable();
        }

        @Test
        void staleReadAfterTheWriteAnswered_isNotLinearizable_andTheReportNamesIt() {
            initial.put(X, v("a"));
            write(1, 2, Mutation.update(X, v("a"), v("b")), WriteResult.applied());
            get(3, 4, X, "a");
            CheckResult result = assertNotLinearizable();
            assertThat(result.explanation()).contains("get(t/x) -> \"a\"");
        }

        @Test
        void readsConcurrentWithAWrite_mayEachSeeEitherValue_butNotNewThenOld() {
            initial.put(X, v("a"));
            write(1, 10, Mutation.update(X, v("a"), v("b")), WriteResult.applied());
            get(2, 3, X, "a");
            get(4, 5, X, "b");
            assertLinearizable();

            get(6, 7, X, "a"); // after a read saw "b", the write has taken effect
            assertNotLinearizable();
        }

        @Test
        void anOrderOtherThanInvocationOrder_isFoundByBacktracking() {
            write(1, 10, Mutation.create(X, v("a")), WriteResult.applied());
            get(2, 3, X, null);
            get(4, 5, X, "a");
            assertLinearizable();
        }

        @Test
        void conflictReportingAValueNobodyWrote_isNotLinearizable() {
            // The shape of a write that applied, was answered 500, and whose retry failed its condition.
            initial.put(X, v("a"));
            write(1, 2, Mutation.update(X, v("a"), v("b")), conflict("b"));
            assertNotLinearizable();
        }

        @Test
        void conflictWithUnknownCurrent_onlyNeedsThePreconditionToFail() {
            initial.put(X, v("a"));
            write(1, 2, Mutation.create(X, v("b")), WriteResult.conflictWithUnknownCurrent());
            assertLinearizable();
            write(3, 4, Mutation.update(X, v("a"), v("c")), WriteResult.conflictWithUnknownCurrent());
            assertNotLinearizable();
        }

        @Test
        void deleteConflictReportingAbsent_whileTheKeyHeldAValue_isNotLinearizable() {
            initial.put(X, v("a"));
            write(1, 2, Mutation.delete(X, v("a")), conflict(null));
            assertNotLinearizable();
        }

        @Test
        void readsOfTwoKeysThatDisagreeOnTheOrderOfTwoWrites_areNotLinearizable() {
            initial.put(X, v("0"));
            initial.put(Y, v("0"));
            write(1, 100, Mutation.update(X, v("0"), v("1")), WriteResult.applied());
            write(1, 100, Mutation.update(Y, v("0"), v("1")), WriteResult.applied());
            get(10, 20, X, "1");
            get(30, 40, Y, "0");
            get(11, 21, Y, "1");
            get(31, 41, X, "0");
            assertNotLinearizable();
        }
    }

    @Nested
    class NotAppliedAnswers {

        @Test
        void aWriteSaidNotApplied_whoseValueIsNeverSeen_isLinearizable() {
            initial.put(X, v("a"));
            write(1, 2, Mutation.update(X, v("a"), v("b")), notApplied());
            get(3, 4, X, "a");
            assertLinearizable();
        }

        @Test
        void aWriteSaidNotApplied_whoseValueIsSeen_isNotLinearizable() {
            // The shape of "every attempt answered 500, nothing was applied" when the first attempt applied.
            initial.put(X, v("a"));
            write(1, 2, Mutation.update(X, v("a"), v("b")), notApplied());
            get(3, 4, X, "b");
            assertNotLinearizable();
        }
    }

    @Nested
    class UnknownOutcomes {

        @Test
        void anUnknownWrite_seenLater_orNeverSeen_isLinearizable() {
            initial.put(X, v("a"));
            initial.put(Y, v("a"));
            write(1, 2, Mutation.update(X, v("a"), v("b")), unknown());
            write(1, 2, Mutation.update(Y, v("a"), v("b")), unknown());
            get(3, 4, X, "b");
            get(3, 4, Y, "a");
            assertLinearizable();
        }

        @Test
        void anUnknownWrite_mayTakeEffectAfterItsCallReturned() {
            initial.put(X, v("a"));
            write(1, 2, Mutation.update(X, v("a"), v("b")), unknown());
            get(3, 4, X, "a");
            get(5, 6, X, "b");
            assertLinearizable();
        }

        @Test
        void anUnknownWrite_seenBeforeItWasInvoked_isNotLinearizable() {
            initial.put(X, v("a"));
            get(1, 2, X, "b");
            write(3, 4, Mutation.update(X, v("a"), v("b")), unknown());
            assertNotLinearizable();
        }

        @Test
        void anUnknownWrite_takesEffectAtMostOnce() {
            // A create that landed twice (once, then again after a delete) is not explained by one create.
            write(1, 2, Mutation.create(X, v("a")), unknown());
            write(3, 4, Mutation.delete(X, v("a")), WriteResult.applied());
            get(5, 6, X, "a");
            assertNotLinearizable();
        }

        @Test
        void anUnknownWrite_takesEffectOnlyWhereItsPreconditionHolds() {
            initial.put(X, v("a"));
            write(1, 2, Mutation.update(X, v("a"), v("b")), WriteResult.applied());
            write(3, 4, Mutation.update(X, v("a"), v("c")), unknown());
            get(5, 6, X, "c");
            assertNotLinearizable();
        }

        @Test
        void readsWithoutAnAnswer_areLeftOut() {
            initial.put(X, v("a"));
            history.add("c", 1, 2, new Call.Get(X), unknown());
            CheckResult result = check();
            assertThat(result.isLinearizable()).isTrue();
            assertThat(result.leftOut()).isEqualTo(1);
        }
    }

    @Nested
    class GuardedWrites {

        @Test
        void appliedWhileTheGuardHeld_rejectedAfterItMoved_isLinearizable() {
            initial.put(G, v("g1"));
            initial.put(X, v("a"));
            guarded(
                    1,
                    2,
                    "g1",
                    Mutation.update(X, v("a"), v("b")),
                    new Outcome.GuardedWritten(GuardedResult.applied()));
            write(3, 4, Mutation.update(G, v("g1"), v("g2")), WriteResult.applied());
            guarded(
                    5,
                    6,
                    "g1",
                    Mutation.update(X, v("b"), v("c")),
                    new Outcome.GuardedWritten(GuardedResult.guardRejected()));
            guarded(
                    7,
                    8,
                    "g2",
                    Mutation.update(X, v("a"), v("c")),
                    new Outcome.GuardedWritten(GuardedResult.targetConflict(conflict("b"))));
            get(9, 10, X, "b");
            assertLinearizable();
        }

        @Test
        void guardRejected_whileTheGuardHeldTheExpectedBytes_isNotLinearizable() {
            initial.put(G, v("g1"));
            initial.put(X, v("a"));
            guarded(
                    1,
                    2,
                    "g1",
                    Mutation.update(X, v("a"), v("b")),
                    new Outcome.GuardedWritten(GuardedResult.guardRejected()));
            assertNotLinearizable();
        }

        @Test
        void applied_whileTheGuardHeldOtherBytes_isNotLinearizable() {
            initial.put(G, v("g2"));
            initial.put(X, v("a"));
            guarded(
                    1,
                    2,
                    "g1",
                    Mutation.update(X, v("a"), v("b")),
                    new Outcome.GuardedWritten(GuardedResult.applied()));
            assertNotLinearizable();
        }

        @Test
        void targetConflict_whoseTargetWasChangedByTheGuardedWriteItself_isNotLinearizable() {
            // The shape of a transaction that committed, lost its answer, and whose retry was cancelled.
            initial.put(G, v("g1"));
            initial.put(X, v("a"));
            guarded(
                    1,
                    2,
                    "g1",
                    Mutation.update(X, v("a"), v("b")),
                    new Outcome.GuardedWritten(GuardedResult.targetConflict(WriteResult.conflictWithUnknownCurrent())));
            get(3, 4, X, "b");
            assertNotLinearizable();
        }

        @Test
        void anUnknownGuardedWrite_appliesOnlyWhileTheGuardHolds() {
            initial.put(G, v("g1"));
            initial.put(X, v("a"));
            guarded(1, 2, "g1", Mutation.update(X, v("a"), v("b")), unknown());
            get(3, 4, X, "b");
            assertLinearizable();

            write(5, 6, Mutation.update(G, v("g1"), v("g2")), WriteResult.applied());
            guarded(7, 8, "g1", Mutation.update(X, v("b"), v("c")), unknown());
            get(9, 10, X, "c");
            assertNotLinearizable();
        }
    }

    @Nested
    class Limits {

        @Test
        void aSearchThatRunsOutOfStates_isUndecided_neverAPass() {
            initial.put(X, v("0"));
            for (int i = 0; i < 6; i++) {
                write(1, 100, Mutation.update(X, v("0"), v("w" + i)), unknown());
            }
            get(101, 102, X, "nobody wrote this");
            CheckResult result = new LinearizabilityChecker(3).check(history.build(), initial);
            assertThat(result.verdict()).isEqualTo(CheckResult.Verdict.UNDECIDED);
            assertThat(result.isLinearizable()).isFalse();
            assertThat(result.toString()).contains("gave up");
        }

        @Test
        void anOutcomeThatDoesNotAnswerItsCall_isRefused() {
            assertThatThrownBy(
                            () -> history.add("c", 1, 2, new Call.Get(X), new Outcome.Written(WriteResult.applied())))
                    .isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> history.add("c", 2, 2, new Call.Get(X), new Outcome.Read(Optional.empty())))
                    .isInstanceOf(IllegalArgumentException.class);
        }
    }
}
