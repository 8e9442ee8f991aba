package io.lake.meta.reliability.crash;

import io.lake.meta.Condition;
import io.lake.meta.Entry;
import io.lake.meta.GuardedMutation;
import io.lake.meta.GuardedResult;
import io.lake.meta.KeyPrefix;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStoreException;
import io.lake.meta.MetaValue;
import io.lake.meta.Mutation;
import io.lake.meta.OutcomeUnknownException;
import io.lake.meta.Transaction;
import io.lake.meta.TransactionFailure;
import io.lake.meta.TransactionResult;
import io.lake.meta.WriteResult;
import io.lake.meta.testkit.history.Call;
import io.lake.meta.testkit.history.Outcome;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;

/**
 * The writer's log of what it sent and what came back, one line each, written with one
 * unbuffered {@code write} before the call is sent and one after its answer, so a SIGKILL leaves
 * every attempt on disk (the operating system keeps what a killed process wrote) and at most a
 * torn last line, which the reader drops.
 *
 * <pre>
 *   A id nanos call...      an attempt, before it is sent
 *   R id nanos outcome...   its answer
 *   W id bytes              the size of the newest WAL file after that answer (power-loss runs)
 *   OPENING nanos / OPENED nanos
 * </pre>
 * Keys and values are tokens without spaces ("-" is absent, "?" a current value not reported).
 * Times are {@link System#nanoTime()}, which on Linux reads the system-wide monotonic clock, so
 * the parent's times after the kill come after every time a child wrote.
 */
final class Journal implements AutoCloseable {

    private final FileOutputStream out;

    Journal(Path file) {
        try {
            this.out = new FileOutputStream(file.toFile(), true);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    void line(String text) {
        try {
            out.write((text + "\n").getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    void attempt(long id, Call call) {
        line("A " + id + " " + System.nanoTime() + " " + encode(call));
    }

    void answer(long id, Outcome outcome) {
        line("R " + id + " " + System.nanoTime() + " " + encode(outcome));
    }

    @Override
    public void close() throws IOException {
        out.close();
    }

    // ---- encoding -------------------------------------------------------------------------

    static String encode(Call call) {
        if (call instanceof Call.Get g) {
            return "get " + g.key();
        }
        if (call instanceof Call.Write w) {
            return encode(w.mutation());
        }
        if (call instanceof Call.FirstPage p) {
            return "page " + p.prefix() + " " + p.limit();
        }
        if (call instanceof Call.Guarded g) {
            GuardedMutation m = g.mutation();
            return "guarded " + m.guardKey() + " " + m.expectedGuard().asUtf8() + " " + encode(m.target());
        }
        Transaction t = ((Call.Transact) call).transaction();
        StringBuilder b = new StringBuilder("txn ").append(t.conditions().size());
        for (Condition c : t.conditions()) {
            b.append(' ')
                    .append(
                            c instanceof Condition.Holds h
                                    ? "holds " + h.key() + " " + h.expected().asUtf8()
                                    : "absent " + c.key());
        }
        b.append(' ').append(t.mutations().size());
        t.mutations().forEach(m -> b.append(' ').append(encode(m)));
        return b.toString();
    }

    private static String encode(Mutation m) {
        if (m instanceof Mutation.Create c) {
            return "create " + c.key() + " " + c.value().asUtf8();
        }
        if (m instanceof Mutation.Update u) {
            return "update " + u.key() + " " + u.expected().asUtf8() + " "
                    + u.value().asUtf8();
        }
        Mutation.Delete d = (Mutation.Delete) m;
        return "delete " + d.key() + " " + d.expected().asUtf8();
    }

    static String encode(Outcome outcome) {
        if (outcome instanceof Outcome.Read r) {
            return "read " + value(r.value());
        }
        if (outcome instanceof Outcome.Written w) {
            return "written " + encode(w.result());
        }
        if (outcome instanceof Outcome.Paged p) {
            StringBuilder b = new StringBuilder("paged ")
                    .append(p.hasMore())
                    .append(' ')
                    .append(p.entries().size());
            p.entries()
                    .forEach(e -> b.append(' ')
                            .append(e.key())
                            .append(' ')
                            .append(e.value().asUtf8()));
            return b.toString();
        }
        if (outcome instanceof Outcome.GuardedWritten g) {
            GuardedResult r = g.result();
            return switch (r.outcome()) {
                case APPLIED -> "guarded applied";
                case GUARD_REJECTED -> "guarded rejected";
                default -> "guarded " + encode(r.targetResult().orElseThrow());
            };
        }
        if (outcome instanceof Outcome.Transacted t) {
            if (t.result().isApplied()) {
                return "txn applied";
            }
            StringBuilder b = new StringBuilder("txn failed ")
                    .append(t.result().failures().size());
            for (TransactionFailure f : t.result().failures()) {
                b.append(' ').append(f.key()).append(' ').append(f.isCurrentKnown() ? value(f.currentValue()) : "?");
            }
            return b.toString();
        }
        return "error " + ((Outcome.Unknown) outcome).reason();
    }

    private static String encode(WriteResult r) {
        if (r.isApplied()) {
            return "applied";
        }
        return "conflict " + (r.isCurrentKnown() ? value(r.currentValue()) : "?");
    }

    private static String value(Optional<MetaValue> v) {
        return v.map(MetaValue::asUtf8).orElse("-");
    }

    /** What a failed call's exception claims, as the child writes it ("error" and the class). */
    static Outcome errorOf(RuntimeException e) {
        return new Outcome.Unknown(e.getClass().getName());
    }

    // ---- decoding -------------------------------------------------------------------------

    /** One journal line: an attempt, an answer, or a start-up mark. */
    record Line(String kind, long id, long nanos, List<String> rest) {}

    /** Every whole line of {@code file} (a torn last line, without its newline, is dropped). */
    static List<Line> read(Path file) throws IOException {
        List<Line> lines = new ArrayList<>();
        if (!Files.exists(file)) {
            return lines;
        }
        String text = Files.readString(file, StandardCharsets.UTF_8);
        int end = text.lastIndexOf('\n');
        if (end < 0) {
            return lines;
        }
        for (String raw : text.substring(0, end).split("\n")) {
            List<String> words = List.of(raw.split(" "));
            switch (words.get(0)) {
                case "W" ->
                    lines.add(new Line("W", Long.parseLong(words.get(1)), Long.parseLong(words.get(2)), List.of()));
                case "A", "R" ->
                    lines.add(new Line(
                            words.get(0),
                            Long.parseLong(words.get(1)),
                            Long.parseLong(words.get(2)),
                            words.subList(3, words.size())));
                default -> lines.add(new Line(words.get(0), -1, Long.parseLong(words.get(1)), List.of()));
            }
        }
        return lines;
    }

    static Call decodeCall(List<String> words) {
        Iterator<String> w = words.iterator();
        String kind = w.next();
        switch (kind) {
            case "get":
                return new Call.Get(MetaKey.of(w.next()));
            case "page":
                return new Call.FirstPage(KeyPrefix.of(w.next()), Integer.parseInt(w.next()));
            case "guarded":
                MetaKey guard = MetaKey.of(w.next());
                MetaValue expected = MetaValue.utf8(w.next());
                return new Call.Guarded(new GuardedMutation(guard, expected, mutation(w.next(), w)));
            case "txn":
                Transaction.Builder t = Transaction.builder();
                int conditions = Integer.parseInt(w.next());
                for (int i = 0; i < conditions; i++) {
                    String c = w.next();
                    MetaKey key = MetaKey.of(w.next());
                    t.require(
                            c.equals("holds") ? Condition.holds(key, MetaValue.utf8(w.next())) : Condition.absent(key));
                }
                int mutations = Integer.parseInt(w.next());
                for (int i = 0; i < mutations; i++) {
                    t.apply(mutation(w.next(), w));
                }
                return new Call.Transact(t.build());
            default:
                return new Call.Write(mutation(kind, w));
        }
    }

    private static Mutation mutation(String kind, Iterator<String> w) {
        MetaKey key = MetaKey.of(w.next());
        return switch (kind) {
            case "create" -> Mutation.create(key, MetaValue.utf8(w.next()));
            case "update" -> Mutation.update(key, MetaValue.utf8(w.next()), MetaValue.utf8(w.next()));
            case "delete" -> Mutation.delete(key, MetaValue.utf8(w.next()));
            default -> throw new IllegalArgumentException("not a mutation: " + kind);
        };
    }

    /**
     * The claim an answer line makes. An error is held to the contract's exception family: an
     * unknown outcome may or may not have applied; any other typed refusal applied nothing; an
     * exception outside the family is unknown here and counted by the caller as untyped.
     */
    static Outcome decodeOutcome(List<String> words) {
        Iterator<String> w = words.iterator();
        String kind = w.next();
        switch (kind) {
            case "read":
                return new Outcome.Read(optional(w.next()));
            case "written":
                return new Outcome.Written(writeResult(w));
            case "paged":
                boolean hasMore = Boolean.parseBoolean(w.next());
                int entries = Integer.parseInt(w.next());
                List<Entry> page = new ArrayList<>();
                for (int i = 0; i < entries; i++) {
                    page.add(new Entry(MetaKey.of(w.next()), MetaValue.utf8(w.next())));
                }
                return new Outcome.Paged(page, hasMore);
            case "guarded":
                String g = w.next();
                if (g.equals("applied")) {
                    return new Outcome.GuardedWritten(GuardedResult.applied());
                }
                if (g.equals("rejected")) {
                    return new Outcome.GuardedWritten(GuardedResult.guardRejected());
                }
                return new Outcome.GuardedWritten(GuardedResult.targetConflict(conflict(w.next())));
            case "txn":
                if (w.next().equals("applied")) {
                    return new Outcome.Transacted(TransactionResult.applied());
                }
                int n = Integer.parseInt(w.next());
                List<TransactionFailure> failures = new ArrayList<>();
                for (int i = 0; i < n; i++) {
                    MetaKey key = MetaKey.of(w.next());
                    String current = w.next();
                    failures.add(
                            current.equals("?")
                                    ? TransactionFailure.currentUnknown(key)
                                    : TransactionFailure.found(key, optional(current)));
                }
                return new Outcome.Transacted(TransactionResult.notApplied(failures));
            default:
                String type = w.next();
                if (type.equals(OutcomeUnknownException.class.getName())) {
                    return new Outcome.Unknown(type);
                }
                if (isTyped(type)) {
                    return new Outcome.NotApplied(type);
                }
                return new Outcome.Unknown("untyped " + type);
        }
    }

    static boolean isTyped(String className) {
        try {
            return MetaStoreException.class.isAssignableFrom(Class.forName(className));
        } catch (ClassNotFoundException e) {
            return false;
        }
    }

    private static WriteResult writeResult(Iterator<String> w) {
        return w.next().equals("applied") ? WriteResult.applied() : conflict(w.next());
    }

    private static WriteResult conflict(String current) {
        return current.equals("?") ? WriteResult.conflictWithUnknownCurrent() : WriteResult.conflict(optional(current));
    }

    private static Optional<MetaValue> optional(String token) {
        return token.equals("-") ? Optional.empty() : Optional.of(MetaValue.utf8(token));
    }
}
