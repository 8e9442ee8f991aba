package io.lake.meta.reliability.crash;

import static org.assertj.core.api.Assertions.assertThat;

import io.lake.meta.GuardedMutation;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaValue;
import io.lake.meta.Mutation;
import io.lake.meta.reliability.MixedWorkload;
import io.lake.meta.reliability.Runs;
import io.lake.meta.rocks.Durability;
import io.lake.meta.testkit.history.Call;
import io.lake.meta.testkit.history.Outcome;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Power loss on RocksDB, simulated on the write-ahead log. The RocksDB JNI ships no
 * fault-injection environment (no {@code FaultInjectionTestEnv} or {@code FaultInjectionTestFS}
 * class; only {@code RocksEnv}, {@code RocksMemEnv} and {@code TimedEnv}), and the store's builder
 * takes no {@code Env}; this machine offers no file system that drops unsynced data. So the suite
 * does what a power loss does to the one file that matters: after a SIGKILL, it throws away part
 * of the WAL's tail that no fsync covered — cut off at a random byte, or a random range of it
 * zeroed (pages the kernel never wrote back) — then reopens the store.
 *
 * <p>One writer, so the order of its answers is the order of the commits. Checked:
 * <ul>
 *   <li>the recovered state is the state after some prefix of the writer's operations (or after
 *       the one in flight): nothing torn, no hole in the middle, nothing reordered;</li>
 *   <li>{@code SYNCED_WAL}: only bytes past the WAL size journaled after the last answer are
 *       damaged, and every acknowledged write survives;</li>
 *   <li>{@code UNSYNCED_WAL}: any of the tail may be damaged (nothing was fsynced), and the suite
 *       counts how many acknowledged writes were lost: that is what this mode gives up.</li>
 * </ul>
 * Sizes: {@code -Dlake.meta.reliability.powerLosses=N} (4 by default, 200 under {@code -Ptorture}).
 */
class RocksPowerLossTest {

    @TempDir
    Path work;

    @Test
    void aDamagedUnsyncedWalTail_leavesAPrefixOfTheCommits_andSyncedWritesSurvive() throws Exception {
        long seed = Runs.seed("power-loss");
        int rounds = Runs.size("powerLosses", 4, 200);
        Random random = new Random(seed);
        List<String> violations = new ArrayList<>();
        Map<Durability, long[]> figures = new HashMap<>(); // rounds, acked, acked lost, bytes damaged
        for (int round = 0; round < rounds && violations.size() < 3; round++) {
            Durability durability = round % 2 == 0 ? Durability.SYNCED_WAL : Durability.UNSYNCED_WAL;
            Round r = new Round(work.resolve("round-" + round), durability, random);
            String problem = r.run();
            if (problem != null) {
                violations.add("round " + round + " (" + durability + "): " + problem);
            }
            long[] f = figures.computeIfAbsent(durability, d -> new long[4]);
            f[0]++;
            f[1] += r.acknowledged;
            f[2] += r.acknowledgedLost;
            f[3] += r.damagedBytes;
        }
        StringBuilder line = new StringBuilder("power losses=" + rounds);
        figures.forEach((d, f) -> line.append("; ")
                .append(d)
                .append(": rounds=")
                .append(f[0])
                .append(", acknowledged writes=")
                .append(f[1])
                .append(", acknowledged writes lost=")
                .append(f[2])
                .append(", WAL bytes damaged=")
                .append(f[3]));
        line.append("; violations=").append(violations.size());
        Runs.figures("power-loss", line.toString());
        assertThat(violations)
                .as("recovered states no prefix of the commits explains")
                .isEmpty();
        assertThat(figures.get(Durability.SYNCED_WAL)[2])
                .as("acknowledged synced writes lost")
                .isZero();
    }

    private static final class Round {
        private final Path dir;
        private final Path journals;
        private final Durability durability;
        private final Random random;
        long acknowledged;
        long acknowledgedLost;
        long damagedBytes;

        Round(Path base, Durability durability, Random random) throws IOException {
            this.dir = base.resolve("store");
            this.journals = Files.createDirectories(base.resolve("journal"));
            this.durability = durability;
            this.random = random;
        }

        /** Null when the recovered state passes, else what is wrong. */
        String run() throws Exception {
            try (WriterProcess child = WriterProcess.start(
                    journals,
                    CrashWriterMain.class,
                    List.of(
                            dir.toString(),
                            journals.toString(),
                            Long.toString(random.nextLong()),
                            "p",
                            "1",
                            "60000",
                            durability.name(),
                            "wal-sizes"))) {
                awaitOpened(child);
                Thread.sleep(200 + random.nextInt(500)); // chooses the moment of the power loss
                child.kill();
            }
            List<Journal.Line> lines = Journal.read(journals.resolve("writer-0.log"));
            long syncedAtLeast = 0;
            for (Journal.Line line : lines) {
                if (line.kind().equals("W")) {
                    syncedAtLeast = Math.max(syncedAtLeast, line.nanos());
                }
            }
            Path wal = new WalFiles(dir).newest().orElseThrow(() -> new AssertionError("no WAL in " + dir));
            long size = Files.size(wal);
            long keep = durability == Durability.SYNCED_WAL ? syncedAtLeast : 0;
            damage(wal, keep, size);

            Replay replay = Replay.of(lines);
            acknowledged = replay.acknowledgedWrites();
            RecoveredState recovered;
            try {
                recovered = RecoveredState.read(dir, MixedWorkload.keys(1));
            } catch (RuntimeException e) {
                return "the store did not open after the WAL lost its unsynced tail: " + e;
            }
            if (!recovered.problems().isEmpty()) {
                return String.join("; ", recovered.problems());
            }
            int prefix = replay.longestPrefixHolding(recovered.values());
            if (prefix < 0) {
                return "no prefix of the " + replay.size() + " operations leaves " + recovered.values();
            }
            acknowledgedLost = replay.acknowledgedWritesAfter(prefix);
            if (durability == Durability.SYNCED_WAL && acknowledgedLost > 0) {
                return acknowledgedLost + " acknowledged synced writes lost (WAL kept to byte " + keep + " of " + size
                        + "; state after operation " + prefix + " of " + replay.size() + ")";
            }
            return null;
        }

        private void awaitOpened(WriterProcess child) throws Exception {
            long deadline = System.nanoTime() + 60_000_000_000L;
            while (System.nanoTime() < deadline) {
                for (Journal.Line mark : Journal.read(journals.resolve("marks.log"))) {
                    if (mark.kind().equals("OPENED")) {
                        return;
                    }
                }
                if (!child.isAlive()) {
                    throw new AssertionError("the writer died before opening:\n" + child.stderr());
                }
                Thread.sleep(20);
            }
            throw new AssertionError("the writer did not open the store in 60 s");
        }

        /** Cuts the WAL at a random byte past {@code keep}, or zeroes a random range past it. */
        private void damage(Path wal, long keep, long size) throws IOException {
            if (size <= keep) {
                return;
            }
            long from = keep + (long) (random.nextDouble() * (size - keep));
            if (random.nextBoolean()) {
                WalFiles.truncate(wal, from);
                damagedBytes += size - from;
                return;
            }
            long to = from + (long) (random.nextDouble() * (size - from));
            try (FileChannel channel = FileChannel.open(wal, StandardOpenOption.WRITE)) {
                channel.write(ByteBuffer.allocate((int) (to - from)), from);
                channel.force(true);
            }
            damagedBytes += to - from;
        }
    }

    /** The states one sequential writer's answers say the store went through. */
    private static final class Replay {
        private final List<Map<MetaKey, MetaValue>> states = new ArrayList<>();
        private final List<Boolean> acknowledgedWrite = new ArrayList<>();
        private Map<MetaKey, MetaValue> inFlightApplied;

        static Replay of(List<Journal.Line> lines) {
            Map<Long, Journal.Line> answers = new HashMap<>();
            lines.stream().filter(l -> l.kind().equals("R")).forEach(l -> answers.put(l.id(), l));
            // The WAL size is journaled after the answer: a kill between the two leaves an answer
            // whose bytes may lie past the last size recorded, so it counts as acknowledged only
            // with its size line.
            java.util.Set<Long> sized = new java.util.HashSet<>();
            lines.stream().filter(l -> l.kind().equals("W")).forEach(l -> sized.add(l.id()));
            Replay replay = new Replay();
            Map<MetaKey, MetaValue> state = Map.of();
            replay.states.add(state);
            for (Journal.Line line : lines) {
                if (!line.kind().equals("A")) {
                    continue;
                }
                Call call = Journal.decodeCall(line.rest());
                Journal.Line answer = answers.get(line.id());
                if (answer == null) {
                    replay.inFlightApplied = applyIfPossible(state, call);
                    break;
                }
                Outcome outcome = Journal.decodeOutcome(answer.rest());
                boolean applied = applied(outcome);
                state = applied ? applyIfPossible(state, call) : state;
                replay.states.add(state);
                replay.acknowledgedWrite.add(applied && sized.contains(line.id()));
            }
            return replay;
        }

        int size() {
            return acknowledgedWrite.size();
        }

        long acknowledgedWrites() {
            return acknowledgedWrite.stream().filter(b -> b).count();
        }

        /** The most operations whose state is {@code recovered} ({@code size() + 1}: the one in flight too); -1 if none. */
        int longestPrefixHolding(Map<MetaKey, MetaValue> recovered) {
            if (recovered.equals(inFlightApplied)) {
                return states.size();
            }
            for (int i = states.size() - 1; i >= 0; i--) {
                if (states.get(i).equals(recovered)) {
                    return i;
                }
            }
            return -1;
        }

        long acknowledgedWritesAfter(int prefix) {
            return prefix >= acknowledgedWrite.size()
                    ? 0
                    : acknowledgedWrite.subList(prefix, acknowledgedWrite.size()).stream()
                            .filter(b -> b)
                            .count();
        }

        private static boolean applied(Outcome outcome) {
            if (outcome instanceof Outcome.Written w) {
                return w.result().isApplied();
            }
            if (outcome instanceof Outcome.GuardedWritten g) {
                return g.result().isApplied();
            }
            if (outcome instanceof Outcome.Transacted t) {
                return t.result().isApplied();
            }
            if (outcome instanceof Outcome.Unknown u) {
                throw new AssertionError("RocksDB answered an unknown outcome mid-history: " + u);
            }
            return false;
        }

        /** The state after {@code call} applied, where its conditions hold; the same state otherwise. */
        private static Map<MetaKey, MetaValue> applyIfPossible(Map<MetaKey, MetaValue> state, Call call) {
            List<Mutation> mutations = new ArrayList<>();
            if (call instanceof Call.Write w) {
                mutations.add(w.mutation());
            } else if (call instanceof Call.Guarded g) {
                GuardedMutation m = g.mutation();
                if (!Optional.of(m.expectedGuard()).equals(Optional.ofNullable(state.get(m.guardKey())))) {
                    return state;
                }
                mutations.add(m.target());
            } else if (call instanceof Call.Transact t) {
                if (!t.transaction().conditions().stream()
                        .allMatch(c -> c.isMet(Optional.ofNullable(state.get(c.key()))))) {
                    return state;
                }
                mutations.addAll(t.transaction().mutations());
            }
            if (!mutations.stream().allMatch(m -> m.preconditionHolds(Optional.ofNullable(state.get(m.key()))))) {
                return state;
            }
            Map<MetaKey, MetaValue> next = new HashMap<>(state);
            for (Mutation m : mutations) {
                m.newValue().ifPresentOrElse(v -> next.put(m.key(), v), () -> next.remove(m.key()));
            }
            return Map.copyOf(next);
        }
    }
}
