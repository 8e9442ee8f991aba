package io.lake.meta.reliability.crash;

import io.lake.meta.MetaKey;
import io.lake.meta.MetaValue;
import io.lake.meta.testkit.history.Call;
import io.lake.meta.testkit.history.History;
import io.lake.meta.testkit.history.Outcome;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Turns the journals one killed child left into a {@link History}: each attempt with its answer,
 * or, when the child died before the answer, with an unknown outcome (in flight at the kill: it
 * may have applied, wholly, or not at all); then the parent's reads of the recovered store,
 * after the kill, so the checker holds the recovered state to every answer the child had.
 */
final class JournalHistory {

    private final History.Builder history = History.builder();
    private int acknowledgedWrites;
    private int inFlight;
    private int untyped;
    private boolean opened;
    private boolean opening;

    private JournalHistory() {}

    static JournalHistory of(Path journalDir, long killedAtNanos) throws IOException {
        JournalHistory h = new JournalHistory();
        h.load(journalDir, killedAtNanos);
        return h;
    }

    private void load(Path journalDir, long killedAtNanos) throws IOException {
        for (Journal.Line mark : Journal.read(journalDir.resolve("marks.log"))) {
            opening |= mark.kind().equals("OPENING");
            opened |= mark.kind().equals("OPENED");
        }
        List<Path> writers;
        try (Stream<Path> files = Files.list(journalDir)) {
            writers = files.filter(p -> p.getFileName().toString().startsWith("writer-"))
                    .sorted()
                    .toList();
        }
        for (Path file : writers) {
            String client = file.getFileName().toString().replace(".log", "");
            Map<Long, Journal.Line> answers = new HashMap<>();
            List<Journal.Line> lines = Journal.read(file);
            for (Journal.Line line : lines) {
                if (line.kind().equals("R")) {
                    answers.put(line.id(), line);
                }
            }
            for (Journal.Line line : lines) {
                if (!line.kind().equals("A")) {
                    continue;
                }
                Call call = Journal.decodeCall(line.rest());
                Journal.Line answer = answers.get(line.id());
                Outcome outcome;
                long answeredAt;
                if (answer == null) {
                    outcome = new Outcome.Unknown("in flight at the kill");
                    answeredAt = killedAtNanos;
                    inFlight += call instanceof Call.Get || call instanceof Call.FirstPage ? 0 : 1;
                } else {
                    outcome = Journal.decodeOutcome(answer.rest());
                    answeredAt = Math.max(answer.nanos(), line.nanos() + 1);
                    if (outcome instanceof Outcome.Unknown u && u.reason().startsWith("untyped")) {
                        untyped++;
                    }
                    boolean write = !(call instanceof Call.Get || call instanceof Call.FirstPage);
                    if (write && !(outcome instanceof Outcome.Unknown) && !(outcome instanceof Outcome.NotApplied)) {
                        acknowledgedWrites++;
                    }
                }
                history.add(client, line.nanos(), answeredAt, call, outcome);
            }
        }
    }

    /** Adds the parent's reads of the recovered store, all after the kill. */
    void recovered(Map<MetaKey, MetaValue> values, List<MetaKey> keys, long afterNanos) {
        long t = afterNanos;
        for (MetaKey key : keys) {
            history.add(
                    "recovered", t, t + 1, new Call.Get(key), new Outcome.Read(Optional.ofNullable(values.get(key))));
            t += 2;
        }
    }

    History history() {
        return history.build();
    }

    /** Writes with a definite answer (applied or a conflict): each is held to the recovered state. */
    int acknowledgedWrites() {
        return acknowledgedWrites;
    }

    /** Writes sent without an answer before the kill. */
    int inFlight() {
        return inFlight;
    }

    /** Answers that were exceptions outside the contract's family. */
    int untyped() {
        return untyped;
    }

    /** Whether the child had begun opening the store. */
    boolean opening() {
        return opening;
    }

    /** Whether the child had finished opening the store. */
    boolean opened() {
        return opened;
    }
}
