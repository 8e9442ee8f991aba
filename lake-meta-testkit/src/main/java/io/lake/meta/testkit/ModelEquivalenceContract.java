package io.lake.meta.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.lists;

import io.lake.meta.MetaStore;
import io.lake.meta.spi.RaceHooks;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * Part of {@link MetaStoreSuite}: random operation sequences give the same answers on the
 * backend under test as on a fresh {@link InMemoryMetaStore}. Write results, guarded results and
 * values must be equal; pages must hold equal entries and agree on whether a token follows (each
 * store then continues with its own token); failures must be of the same exception class. After
 * each sequence both stores must hold the same entries.
 *
 * <p>Runs {@link #modelEquivalenceSequences()} sequences of up to {@value #MAX_OPERATIONS}
 * operations, each on a newly opened backend store. QuickTheories shrinks a failing sequence and
 * prints it with its seed; rerun with {@code -DQT_SEED=<seed>} to reproduce it.
 */
@ContractGroup("model equivalence")
abstract class ModelEquivalenceContract extends RaceContract {

    static final int MAX_OPERATIONS = 30;
    /** How much of one answer, and of the QuickTheories report, a failure message shows. */
    private static final int OUTCOME_CHARS = 300;

    private static final int REPORT_CHARS = 1_500;
    static final String PAGES_HINT = "By default the contract expects pages equal to the model's, page for page"
            + " (unsigned-byte key order, full pages while keys remain). If the backend's pages may legitimately"
            + " hold fewer entries (the API allows it), declare so in its BackendFactory: return"
            + " Capabilities.all().without(Capability.PAGES_MATCH_THE_MODEL, \"<why>\") from capabilities()";

    /** How many random sequences the properties run: {@link SuiteSettings#modelEquivalenceSequences()}. */
    final int modelEquivalenceSequences() {
        return settings().modelEquivalenceSequences();
    }

    /**
     * Whether pages of the backend must equal the model's page for page: unless the backend was
     * declared without {@link Capability#PAGES_MATCH_THE_MODEL}, when its pages are only checked for
     * their bounds, and the full contents after each sequence still must equal the model's.
     */
    final boolean pagesMatchTheModelExactly() {
        return declares(Capability.PAGES_MATCH_THE_MODEL);
    }

    @Test
    void randomOperationSequences_answerExactlyLikeTheModel() {
        AtomicReference<List<ModelOps.Op>> shortestFailing = new AtomicReference<>();
        try {
            qt().withExamples(modelEquivalenceSequences())
                    .forAll(lists().of(ModelOps.operations()).ofSizeBetween(1, MAX_OPERATIONS))
                    .checkAssert(ops -> {
                        try {
                            runAgainstModel(ops);
                        } catch (AssertionError e) {
                            shortestFailing.accumulateAndGet(ops, (a, b) -> a == null || b.size() < a.size() ? b : a);
                            throw e;
                        }
                    });
        } catch (AssertionError quickTheoriesReport) {
            if (shortestFailing.get() == null) {
                throw quickTheoriesReport;
            }
            throw minimizedFailure(shortestFailing.get(), quickTheoriesReport);
        }
    }

    /**
     * QuickTheories shrinks the values inside a sequence better than its length; this drops
     * operations one at a time for as long as the rest still fails, and reports that script.
     */
    private AssertionError minimizedFailure(List<ModelOps.Op> failing, AssertionError quickTheoriesReport) {
        List<ModelOps.Op> script = new ArrayList<>(failing);
        boolean removed = true;
        while (removed) {
            removed = false;
            for (int i = 0; i < script.size() && script.size() > 1; i++) {
                List<ModelOps.Op> shorter = new ArrayList<>(script);
                shorter.remove(i);
                if (failureOf(shorter) != null) {
                    script = shorter;
                    removed = true;
                    i--;
                }
            }
        }
        AssertionError why = failureOf(script);
        StringBuilder message = new StringBuilder("the backend answered differently from the model.\n")
                .append("Shortest failing script (")
                .append(script.size())
                .append(" operations on a new store):\n");
        for (int i = 0; i < script.size(); i++) {
            message.append("  ")
                    .append(i + 1)
                    .append(". ")
                    .append(script.get(i))
                    .append('\n');
        }
        message.append("Difference: ")
                .append(
                        why == null
                                ? "(the shortened script passed when rerun)"
                                : why.getMessage() == null
                                        ? why.toString()
                                        : why.getMessage().strip())
                .append("\n\nQuickTheories report (in full: the suppressed exception):\n")
                .append(withoutStackFrames(quickTheoriesReport.getMessage()));
        AssertionError error = new AssertionError(message.toString(), why);
        error.addSuppressed(quickTheoriesReport);
        return error;
    }

    /**
     * The report without the stack frames of its cause and the other falsifying sequences (the
     * shortest and the seed are what reproduce it), at most {@code REPORT_CHARS} characters.
     */
    private static String withoutStackFrames(@Nullable String report) {
        StringBuilder kept = new StringBuilder();
        boolean others = false;
        for (String line : (Iterable<String>) String.valueOf(report).lines()::iterator) {
            others = (others || line.startsWith("Other found falsifying")) && !line.startsWith("Seed was");
            if (!others && !line.startsWith("\tat ") && !line.matches("\\s*\\.\\.\\. \\d+ more")) {
                kept.append(line).append('\n');
            }
        }
        return bounded(kept.toString().strip(), REPORT_CHARS);
    }

    /** {@code text}, cut to {@code max} characters with a note of how long it was. */
    static String bounded(String text, int max) {
        return text.length() <= max ? text : text.substring(0, max) + "... (" + text.length() + " characters)";
    }

    private @Nullable AssertionError failureOf(List<ModelOps.Op> ops) {
        try {
            runAgainstModel(ops);
            return null;
        } catch (AssertionError e) {
            return e;
        }
    }

    void runAgainstModel(List<ModelOps.Op> ops) {
        MetaStore backend;
        try {
            backend = openStoreAsDeclared(RaceHooks.NONE);
        } catch (Exception e) {
            throw new AssertionError("BackendFactory.open(context) failed", e);
        }
        assertThat(backend).as("openStore(hooks) must return a store").isNotNull();
        try (InMemoryMetaStore model = InMemoryMetaStore.create();
                MetaStore b = backend) {
            ModelOps.contentsIfNotEmpty(b)
                    .ifPresent(contents -> fail(
                            "BackendFactory.open(context) must return a new, empty store on every call, but it holds "
                                    + contents));
            ModelOps.Tokens backendTokens = new ModelOps.Tokens();
            ModelOps.Tokens modelTokens = new ModelOps.Tokens();
            boolean exact = pagesMatchTheModelExactly();
            for (int i = 0; i < ops.size(); i++) {
                ModelOps.Op op = ops.get(i);
                ModelOps.Outcome expected;
                ModelOps.Outcome actual;
                // The backend runs first: expected bytes marked <current> are read from the model,
                // which must not have changed yet.
                actual = op.run(b, model, backendTokens, exact);
                expected = op.run(model, model, modelTokens, exact);
                if (exact
                        && actual.answer() instanceof ModelOps.PageOutcome
                        && expected.answer() instanceof ModelOps.PageOutcome
                        && !actual.equals(expected)) {
                    fail(String.format(
                            "step %d, %s: the backend's page %s is not the model's %s. %s",
                            i + 1,
                            op,
                            bounded(actual.toString(), OUTCOME_CHARS),
                            bounded(expected.toString(), OUTCOME_CHARS),
                            PAGES_HINT));
                }
                assertThat(actual)
                        .as(
                                "step %d, %s: backend answered %s, the model %s",
                                i + 1,
                                op,
                                bounded(actual.toString(), OUTCOME_CHARS),
                                bounded(expected.toString(), OUTCOME_CHARS))
                        .isEqualTo(expected);
            }
            for (String family : ModelOps.FAMILIES) {
                assertThat(ContractSupport.contents(b, family))
                        .as("contents of %s after the sequence", family)
                        .isEqualTo(ContractSupport.contents(model, family));
            }
        }
    }
}
