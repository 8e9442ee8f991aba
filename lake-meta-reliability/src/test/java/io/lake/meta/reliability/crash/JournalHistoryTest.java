package io.lake.meta.reliability.crash;

import static org.assertj.core.api.Assertions.assertThat;

import io.lake.meta.MetaKey;
import io.lake.meta.MetaValue;
import io.lake.meta.reliability.MixedWorkload;
import io.lake.meta.testkit.InMemoryMetaStore;
import io.lake.meta.testkit.history.CheckResult;
import io.lake.meta.testkit.history.LinearizabilityChecker;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The crash suite's check can fail: a journal written through {@link JournalingStore}, read back
 * by {@link JournalHistory}, passes against the state the store really holds, and fails when one
 * acknowledged write is taken out of that state (a lost write) or a value is changed (a torn one).
 */
class JournalHistoryTest {

    @TempDir
    Path work;

    @Test
    void theRecoveredStateCheck_catchesALostAndATornWrite() throws Exception {
        List<MetaKey> keys = MixedWorkload.keys(1);
        Map<MetaKey, MetaValue> state;
        try (InMemoryMetaStore store = InMemoryMetaStore.create();
                Journal journal = new Journal(work.resolve("writer-0.log"))) {
            MixedWorkload w = new MixedWorkload(
                    0, "t", new Random(7), new JournalingStore(store, journal, 0, null), MixedWorkload.errorCounts());
            for (int i = 0; i < 200; i++) {
                w.step();
            }
            state = new HashMap<>();
            for (MetaKey k : keys) {
                store.get(k).ifPresent(v -> state.put(k, v));
            }
        }
        assertThat(check(state, keys).isLinearizable()).as("the true state").isTrue();

        MetaKey written = state.keySet().stream()
                .filter(k -> !k.equals(MixedWorkload.GUARD))
                .findFirst()
                .orElseThrow();
        Map<MetaKey, MetaValue> lost = new HashMap<>(state);
        lost.remove(written);
        assertThat(check(lost, keys).verdict())
                .as("without " + written)
                .isEqualTo(CheckResult.Verdict.NOT_LINEARIZABLE);

        Map<MetaKey, MetaValue> torn = new HashMap<>(state);
        torn.put(written, MetaValue.utf8(state.get(written).asUtf8().substring(1)));
        assertThat(check(torn, keys).verdict())
                .as("with a torn " + written)
                .isEqualTo(CheckResult.Verdict.NOT_LINEARIZABLE);
    }

    private CheckResult check(Map<MetaKey, MetaValue> recovered, List<MetaKey> keys) throws Exception {
        JournalHistory journal = JournalHistory.of(work, System.nanoTime());
        journal.recovered(recovered, keys, System.nanoTime());
        return new LinearizabilityChecker().check(journal.history(), Map.of());
    }
}
