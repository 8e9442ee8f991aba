package io.lake.meta.testkit.history;

import io.lake.meta.MetaKey;
import io.lake.meta.MetaValue;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Checks a {@link History} for linearizability against the multi-key register model of the
 * {@code MetaStore} contract: is there one order of the operations, each placed between its
 * invocation and its answer, in which every answer is what the sequential model gives?
 *
 * <p>The search is Wing and Gong's, with Lowe's cache of (operations placed, state) pairs: walk
 * the invocations and answers in time order; try to place each pending operation next; on
 * reaching an answer whose operation is not placed yet, undo the last choice. The operations
 * are held in a doubly linked list, so placing and undoing one unlinks and relinks its two
 * entries.
 *
 * <p>Unknown outcomes are "may or may not have applied": such an operation has no answer entry,
 * so it may be placed at any point after its invocation, or never. Operations the store said it
 * did not apply are left out (they must have had no effect), and so are reads with no answer.
 *
 * <p>The search is exponential in the worst case; it gives up after a bounded number of states
 * and says so ({@link CheckResult.Verdict#UNDECIDED}), never passing a history it did not finish.
 *
 * @since 0.1.0
 */
public final class LinearizabilityChecker {

    /** The default bound on distinct (operations placed, state) pairs explored. */
    public static final int DEFAULT_STATE_LIMIT = 2_000_000;

    private static final int ORDER_SHOWN = 8;

    private final int stateLimit;

    /** A checker with the default state budget. */
    public LinearizabilityChecker() {
        this(DEFAULT_STATE_LIMIT);
    }

    /** @param stateLimit how many distinct (operations placed, state) pairs to explore before giving up; at least 1 */
    public LinearizabilityChecker(int stateLimit) {
        if (stateLimit < 1) {
            throw new IllegalArgumentException("stateLimit must be at least 1, got " + stateLimit);
        }
        this.stateLimit = stateLimit;
    }

    /**
     * Checks {@code history}: whether one order of its operations, each within its own time span,
     * explains every answer.
     *
     * @param history the operations to check
     * @param initial what the store held before the first operation (keys not in it are absent)
     */
    public CheckResult check(History history, Map<MetaKey, MetaValue> initial) {
        List<Operation> checked = new ArrayList<>();
        int leftOut = 0;
        for (Operation op : history.operations()) {
            if (op.outcome() instanceof Outcome.NotApplied
                    || (isRead(op.call()) && op.outcome() instanceof Outcome.Unknown)) {
                leftOut++;
            } else {
                checked.add(op);
            }
        }
        return new Search(checked, leftOut, Map.copyOf(initial)).run();
    }

    private static boolean isRead(Call call) {
        return call instanceof Call.Get || call instanceof Call.FirstPage;
    }

    /** An invocation or an answer in the time-ordered list. */
    private static final class Entry {
        final Operation op;
        final int index;
        final boolean invocation;
        final long time;

        @Nullable
        Entry answer;

        @Nullable
        Entry prev;

        @Nullable
        Entry next;

        Entry(Operation op, int index, boolean invocation, long time) {
            this.op = op;
            this.index = index;
            this.invocation = invocation;
            this.time = time;
        }

        /** The list's first entry, before every invocation and answer: it is never placed, and has no operation. */
        @SuppressWarnings("NullAway") // its op is never read: the search starts at head.next
        static Entry head() {
            return new Entry(null, -1, false, Long.MIN_VALUE);
        }

        void unlink() {
            Entry prev = Objects.requireNonNull(this.prev); // only the head has none, and it is never unlinked
            prev.next = next;
            if (next != null) {
                next.prev = prev;
            }
        }

        void relink() {
            Entry prev = Objects.requireNonNull(this.prev);
            prev.next = this;
            if (next != null) {
                next.prev = this;
            }
        }
    }

    /** A choice to undo: the invocation placed, and the state before it. */
    private record Choice(Entry invocation, Map<MetaKey, MetaValue> before) {}

    private record Visited(BitSet placed, Map<MetaKey, MetaValue> state) {}

    private final class Search {
        private final List<Operation> ops;
        private final int leftOut;
        private final Map<MetaKey, MetaValue> initial;
        private final Entry head = Entry.head();
        private int answersLeft;

        private int deepest = -1;
        private @Nullable Operation blockedAtDeepest;
        private @Nullable Map<MetaKey, MetaValue> stateAtDeepest;
        private List<Operation> orderAtDeepest = List.of();

        Search(List<Operation> ops, int leftOut, Map<MetaKey, MetaValue> initial) {
            this.ops = ops;
            this.leftOut = leftOut;
            this.initial = initial;
            List<Entry> entries = new ArrayList<>();
            for (int i = 0; i < ops.size(); i++) {
                Operation op = ops.get(i);
                Entry invocation = new Entry(op, i, true, op.invokedAt());
                entries.add(invocation);
                if (!(op.outcome() instanceof Outcome.Unknown)) {
                    invocation.answer = new Entry(op, i, false, op.answeredAt());
                    entries.add(invocation.answer);
                    answersLeft++;
                }
            }
            // Equal times count as concurrent: invocations first.
            entries.sort(Comparator.comparingLong((Entry e) -> e.time).thenComparing(e -> !e.invocation));
            Entry last = head;
            for (Entry e : entries) {
                last.next = e;
                e.prev = last;
                last = e;
            }
        }

        CheckResult run() {
            long unknown = ops.stream()
                    .filter(op -> op.outcome() instanceof Outcome.Unknown)
                    .count();
            Set<Visited> visited = new HashSet<>();
            Deque<Choice> choices = new ArrayDeque<>();
            BitSet placed = new BitSet(ops.size());
            Map<MetaKey, MetaValue> state = initial;
            Entry entry = head.next;
            while (answersLeft > 0) {
                if (entry == null) { // an answer left is an entry ahead
                    throw new IllegalStateException("the search ran past the last entry with answers left");
                }
                if (entry.invocation) {
                    Optional<Map<MetaKey, MetaValue>> next =
                            RegisterModel.step(state, entry.op.call(), entry.op.outcome());
                    if (next.isPresent()) {
                        BitSet nowPlaced = (BitSet) placed.clone();
                        nowPlaced.set(entry.index);
                        if (visited.add(new Visited(nowPlaced, next.get()))) {
                            if (visited.size() > stateLimit) {
                                return CheckResult.undecided(
                                        ops.size(),
                                        unknown,
                                        leftOut,
                                        visited.size(),
                                        "gave up after exploring " + stateLimit + " states");
                            }
                            choices.push(new Choice(entry, state));
                            state = next.get();
                            placed = nowPlaced;
                            place(entry);
                            entry = head.next;
                            continue;
                        }
                    }
                    entry = entry.next;
                } else {
                    noteBlocked(entry.op, choices, state);
                    if (choices.isEmpty()) {
                        return CheckResult.notLinearizable(ops.size(), unknown, leftOut, visited.size(), explanation());
                    }
                    Choice undone = choices.pop();
                    state = undone.before();
                    placed.clear(undone.invocation().index);
                    unplace(undone.invocation());
                    entry = undone.invocation().next;
                }
            }
            return CheckResult.linearizable(ops.size(), unknown, leftOut, visited.size());
        }

        private void place(Entry invocation) {
            invocation.unlink();
            if (invocation.answer != null) {
                invocation.answer.unlink();
                answersLeft--;
            }
        }

        private void unplace(Entry invocation) {
            if (invocation.answer != null) {
                invocation.answer.relink();
                answersLeft++;
            }
            invocation.relink();
        }

        /** Keeps, for the report, the operation that blocked the deepest order found. */
        private void noteBlocked(Operation blocked, Deque<Choice> choices, Map<MetaKey, MetaValue> state) {
            if (choices.size() <= deepest) {
                return;
            }
            deepest = choices.size();
            blockedAtDeepest = blocked;
            stateAtDeepest = state;
            List<Operation> order = new ArrayList<>();
            Iterator<Choice> newestFirst = choices.iterator();
            while (newestFirst.hasNext() && order.size() < ORDER_SHOWN) {
                order.add(0, newestFirst.next().invocation().op);
            }
            orderAtDeepest = order;
        }

        private String explanation() {
            StringBuilder b = new StringBuilder();
            b.append("no order of the operations explains ")
                    .append(blockedAtDeepest)
                    .append("\n  the longest consistent order found has ")
                    .append(deepest)
                    .append(" operation(s); after it the registers hold ")
                    .append(stateAtDeepest);
            if (!orderAtDeepest.isEmpty()) {
                b.append("; it ends with:");
                for (Operation op : orderAtDeepest) {
                    b.append("\n    ").append(op);
                }
            }
            return b.toString();
        }
    }
}
