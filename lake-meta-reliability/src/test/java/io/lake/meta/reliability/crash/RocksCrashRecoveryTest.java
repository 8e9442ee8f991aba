package io.lake.meta.reliability.crash;

import static org.assertj.core.api.Assertions.assertThat;

import io.lake.meta.MetaKey;
import io.lake.meta.MetaValue;
import io.lake.meta.reliability.MixedWorkload;
import io.lake.meta.reliability.Runs;
import io.lake.meta.rocks.Durability;
import io.lake.meta.testkit.history.CheckResult;
import io.lake.meta.testkit.history.LinearizabilityChecker;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Crash recovery on RocksDB: a child JVM runs three writers (synced creates, CAS updates,
 * deletes, guarded writes with current and with stale guards, transactions, batch reads and
 * pages), journaling each attempt before it is sent and each answer after; the parent SIGKILLs it
 * at a random moment — every fourth kill lands before the store is open, in the JVM's start-up or
 * the store's open and WAL recovery — then reopens the store and checks the child's whole history, with the parent's
 * reads of the recovered store after it, for linearizability: every acknowledged write is there,
 * every write in flight at the kill applied wholly or not at all, no value appears that no write
 * wrote (nothing torn), every answer agrees with the state. Pages must agree with point reads,
 * and no stale-guarded write may ever have applied.
 *
 * <p>The same directory lives through every kill, so each child also recovers what the previous
 * kills left. Sizes: {@code -Dlake.meta.reliability.kills=N} (6 by default, 1 000 under
 * {@code -Ptorture}).
 */
class RocksCrashRecoveryTest {

    private static final int WRITERS = 3;

    @TempDir
    Path work;

    @Test
    void killedWriters_loseNoAcknowledgedWrite_andLeaveNothingTorn() throws Exception {
        long seed = Runs.seed("crash-recovery");
        int kills = Runs.size("kills", 6, 1_000);
        Random random = new Random(seed);
        Path dir = work.resolve("store");
        List<MetaKey> keys = MixedWorkload.keys(WRITERS);
        Map<MetaKey, MetaValue> state = Map.of();
        long openMillis = 1_500; // learned from the children as they open
        int duringStartup = 0;
        int duringOpen = 0;
        long acknowledged = 0;
        long inFlight = 0;
        long untyped = 0;
        List<String> violations = new ArrayList<>();

        for (int kill = 0; kill < kills && violations.size() < 3; kill++) {
            Path journals = Files.createDirectories(work.resolve("journal-" + kill));
            // every fourth kill lands before the store is open: JVM start-up, or the open and its WAL recovery
            long delay = kill % 4 == 1 ? (long) (random.nextDouble() * openMillis) : openMillis + random.nextInt(700);
            long killedAt;
            try (WriterProcess child = WriterProcess.start(
                    journals,
                    CrashWriterMain.class,
                    List.of(
                            dir.toString(),
                            journals.toString(),
                            Long.toString(random.nextLong()),
                            "i" + kill,
                            Integer.toString(WRITERS),
                            "60000",
                            Durability.SYNCED_WAL.name()))) {
                Thread.sleep(delay); // chooses the kill moment; no check depends on it
                if (!child.isAlive()) {
                    throw new AssertionError("the writer died by itself:\n" + child.stderr());
                }
                killedAt = child.kill();
                openMillis = learnOpenTime(journals, child.startedNanos(), openMillis);
            }

            JournalHistory journal = JournalHistory.of(journals, killedAt);
            duringStartup += journal.opening() ? 0 : 1;
            duringOpen += journal.opening() && !journal.opened() ? 1 : 0;
            RecoveredState recovered = RecoveredState.read(dir, keys);
            journal.recovered(recovered.values(), keys, System.nanoTime());
            CheckResult result = new LinearizabilityChecker().check(journal.history(), state);

            acknowledged += journal.acknowledgedWrites();
            inFlight += journal.inFlight();
            untyped += journal.untyped();
            if (!result.isLinearizable()) {
                violations.add("kill " + kill + " after " + delay + " ms: " + result);
            }
            for (String problem : recovered.problems()) {
                violations.add("kill " + kill + ": " + problem);
            }
            for (int c = 0; c < WRITERS; c++) {
                if (recovered.values().containsKey(MixedWorkload.fenced(c))) {
                    violations.add("kill " + kill + ": a stale-guarded write applied: " + MixedWorkload.fenced(c));
                }
            }
            state = recovered.values();
            if (journal.untyped() == 0 && result.isLinearizable()) {
                deleteQuietly(journals); // keep the journals of a failure for its report
            }
        }

        Runs.figures(
                "crash-recovery",
                "kills=" + kills + " (" + duringStartup + " in JVM start-up, " + duringOpen
                        + " while opening/recovering the store; open took ~" + openMillis
                        + " ms), acknowledged writes checked=" + acknowledged
                        + ", in flight at a kill=" + inFlight + ", untyped errors=" + untyped + ", lost or torn="
                        + violations.size());
        assertThat(violations)
                .as("histories the recovered store does not explain (seed in the line above)")
                .isEmpty();
        assertThat(untyped).as("answers outside the exception family").isZero();
        assertThat(acknowledged)
                .as("the writers got answers before being killed")
                .isPositive();
    }

    /** The time the child took to open the store, from its marks; the previous estimate if it had not yet. */
    private static long learnOpenTime(Path journals, long startedNanos, long previous) throws java.io.IOException {
        for (Journal.Line mark : Journal.read(journals.resolve("marks.log"))) {
            if (mark.kind().equals("OPENED")) {
                long millis = (mark.nanos() - startedNanos) / 1_000_000;
                return (previous * 3 + millis) / 4;
            }
        }
        return previous;
    }

    private static void deleteQuietly(Path dir) {
        try (var files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder())
                    .forEach(p -> p.toFile().delete());
        } catch (java.io.IOException e) {
            // left for the temp dir's own clean-up
        }
    }
}
