package io.lake.meta.testkit.history;

import static org.assertj.core.api.Assertions.assertThat;

import io.lake.meta.Entry;
import io.lake.meta.KeyPrefix;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.Transaction;
import io.lake.meta.TransactionFailure;
import io.lake.meta.TransactionResult;
import io.lake.meta.testkit.InMemoryMetaStore;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The checker on hand-written histories of transactions and first pages, linearizable and not,
 * and the recorder on a real store's transactions, batch reads and pages.
 */
class TransactionAndPageHistoryTest {

    private static final MetaKey X = MetaKey.of("t/x");
    private static final MetaKey Y = MetaKey.of("t/y");
    private static final KeyPrefix T = KeyPrefix.of("t/");

    private final History.Builder history = History.builder();
    private final Map<MetaKey, MetaValue> initial = new HashMap<>();

    private static MetaValue v(String text) {
        return MetaValue.utf8(text);
    }

    private void transact(long from, long to, Transaction t, Outcome outcome) {
        history.add("c", from, to, new Call.Transact(t), outcome);
    }

    private void get(long from, long to, MetaKey key, String seen) {
        history.add(
                "c",
                from,
                to,
                new Call.Get(key),
                new Outcome.Read(Optional.ofNullable(seen).map(MetaValue::utf8)));
    }

    private void page(long from, long to, int limit, boolean hasMore, Entry... entries) {
        history.add("c", from, to, new Call.FirstPage(T, limit), new Outcome.Paged(List.of(entries), hasMore));
    }

    private static Outcome applied() {
        return new Outcome.Transacted(TransactionResult.applied());
    }

    private static Outcome failed(TransactionFailure... failures) {
        return new Outcome.Transacted(TransactionResult.notApplied(List.of(failures)));
    }

    private static TransactionFailure found(MetaKey key, String current) {
        return TransactionFailure.found(key, Optional.ofNullable(current).map(MetaValue::utf8));
    }

    private CheckResult check() {
        return new LinearizabilityChecker().check(history.build(), initial);
    }

    @Test
    void anAppliedTransaction_movesEveryKeyAtOnce() {
        initial.put(X, v("a"));
        transact(
                1,
                2,
                Transaction.builder()
                        .update(X, v("a"), v("b"))
                        .create(Y, v("y"))
                        .build(),
                applied());
        get(3, 4, X, "b");
        get(5, 6, Y, "y");
        assertThat(check().isLinearizable()).as(check().toString()).isTrue();
    }

    @Test
    void aReaderSeeingHalfATransaction_isNotLinearizable() {
        initial.put(X, v("a"));
        transact(
                1,
                4,
                Transaction.builder()
                        .update(X, v("a"), v("b"))
                        .create(Y, v("y"))
                        .build(),
                applied());
        get(2, 5, X, "b");
        get(6, 7, Y, null);
        assertThat(check().verdict()).isEqualTo(CheckResult.Verdict.NOT_LINEARIZABLE);
    }

    @Test
    void aFailedTransaction_mustNameEveryFailure_withWhatTheKeyHeld() {
        initial.put(X, v("a"));
        Transaction t = Transaction.builder()
                .requireAbsent(X)
                .update(Y, v("old"), v("new"))
                .build();
        transact(1, 2, t, failed(found(X, "a"), found(Y, null)));
        assertThat(check().isLinearizable()).isTrue();

        History.Builder onlyOne = History.builder();
        onlyOne.add("c", 1, 2, new Call.Transact(t), failed(found(X, "a")));
        assertThat(new LinearizabilityChecker().check(onlyOne.build(), initial).verdict())
                .as("a failure left out")
                .isEqualTo(CheckResult.Verdict.NOT_LINEARIZABLE);

        History.Builder wrongValue = History.builder();
        wrongValue.add("c", 1, 2, new Call.Transact(t), failed(found(X, "zzz"), found(Y, null)));
        assertThat(new LinearizabilityChecker()
                        .check(wrongValue.build(), initial)
                        .verdict())
                .as("a failure reporting a value the key never held")
                .isEqualTo(CheckResult.Verdict.NOT_LINEARIZABLE);
    }

    @Test
    void aFalseConflict_isNotLinearizable() {
        transact(1, 2, Transaction.builder().create(X, v("a")).build(), failed(found(X, null)));
        assertThat(check().verdict()).isEqualTo(CheckResult.Verdict.NOT_LINEARIZABLE);
    }

    @Test
    void anUnknownTransaction_mayApplyLater_orNever_butOnlyWhole() {
        Transaction t =
                Transaction.builder().create(X, v("a")).create(Y, v("b")).build();
        transact(1, 2, t, new Outcome.Unknown("lost answer"));
        get(3, 4, X, null);
        get(5, 6, X, "a");
        get(7, 8, Y, "b");
        assertThat(check().isLinearizable()).isTrue();

        History.Builder half = History.builder();
        half.add("c", 1, 2, new Call.Transact(t), new Outcome.Unknown("lost answer"));
        half.add("c", 3, 4, new Call.Get(X), new Outcome.Read(Optional.of(v("a"))));
        half.add("c", 5, 6, new Call.Get(Y), new Outcome.Read(Optional.empty()));
        assertThat(new LinearizabilityChecker().check(half.build(), initial).verdict())
                .isEqualTo(CheckResult.Verdict.NOT_LINEARIZABLE);
    }

    @Test
    void aFirstPage_isOneSnapshotOfThePrefix() {
        initial.put(X, v("a"));
        initial.put(Y, v("b"));
        page(1, 2, 10, false, new Entry(X, v("a")), new Entry(Y, v("b")));
        page(3, 4, 1, true, new Entry(X, v("a")));
        assertThat(check().isLinearizable()).isTrue();

        History.Builder missing = History.builder();
        missing.add("c", 1, 2, new Call.FirstPage(T, 10), new Outcome.Paged(List.of(new Entry(Y, v("b"))), false));
        assertThat(new LinearizabilityChecker().check(missing.build(), initial).verdict())
                .as("a page that skipped a key and claimed to be the last")
                .isEqualTo(CheckResult.Verdict.NOT_LINEARIZABLE);
    }

    @Test
    void theRecorder_recordsTransactionsBatchReadsAndFirstPages() {
        HistoryRecorder recorder = new HistoryRecorder();
        try (InMemoryMetaStore store = InMemoryMetaStore.create()) {
            MetaStore recorded = recorder.recordingWithPages(store);
            recorded.transact(
                    Transaction.builder().create(X, v("a")).create(Y, v("b")).build());
            recorded.getAll(List.of(X, Y, MetaKey.of("t/z")));
            recorded.page(T, 10);
        }
        History h = recorder.history();
        assertThat(h.operations())
                .extracting(op -> op.call().getClass().getSimpleName())
                .containsExactly("Transact", "Get", "Get", "Get", "FirstPage");
        assertThat(h.operations().get(3).outcome()).hasToString("absent");
        assertThat(new LinearizabilityChecker().check(h, Map.of()).isLinearizable())
                .isTrue();
    }
}
