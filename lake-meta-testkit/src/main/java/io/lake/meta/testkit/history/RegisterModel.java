package io.lake.meta.testkit.history;

import io.lake.meta.Condition;
import io.lake.meta.Entry;
import io.lake.meta.GuardedMutation;
import io.lake.meta.GuardedResult;
import io.lake.meta.KeyPrefix;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaValue;
import io.lake.meta.Mutation;
import io.lake.meta.Transaction;
import io.lake.meta.TransactionFailure;
import io.lake.meta.TransactionResult;
import io.lake.meta.WriteResult;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The sequential specification the checker holds a store to: many keys, each a register that is
 * absent or holds bytes, changed by exact-bytes conditional and guarded writes and by
 * all-or-nothing transactions, read by point reads and first pages. A state is an
 * immutable map (equal states are equal maps, so the checker can cache them).
 */
final class RegisterModel {

    private RegisterModel() {}

    /**
     * The state after {@code call} took effect at {@code state} with {@code outcome}, or empty if
     * it could not have answered that at this state. An unknown outcome here means "it took
     * effect now", so it steps only where it would have applied; "never" is the checker's other
     * choice.
     */
    static Optional<Map<MetaKey, MetaValue>> step(Map<MetaKey, MetaValue> state, Call call, Outcome outcome) {
        if (call instanceof Call.Get get) {
            Optional<MetaValue> seen = ((Outcome.Read) outcome).value();
            return seen.equals(current(state, get.key())) ? Optional.of(state) : Optional.empty();
        }
        if (call instanceof Call.Write write) {
            Mutation m = write.mutation();
            if (outcome instanceof Outcome.Unknown) {
                return applies(state, m) ? Optional.of(after(state, m)) : Optional.empty();
            }
            return write(state, m, ((Outcome.Written) outcome).result());
        }
        if (call instanceof Call.Transact transact) {
            return transaction(state, transact.transaction(), outcome);
        }
        if (call instanceof Call.FirstPage page) {
            return firstPage(state, page, (Outcome.Paged) outcome) ? Optional.of(state) : Optional.empty();
        }
        GuardedMutation g = ((Call.Guarded) call).mutation();
        boolean guardHolds = current(state, g.guardKey()).equals(Optional.of(g.expectedGuard()));
        if (outcome instanceof Outcome.Unknown) {
            return guardHolds && applies(state, g.target()) ? Optional.of(after(state, g.target())) : Optional.empty();
        }
        GuardedResult result = ((Outcome.GuardedWritten) outcome).result();
        switch (result.outcome()) {
            case GUARD_REJECTED:
                return guardHolds ? Optional.empty() : Optional.of(state);
            case APPLIED:
                return guardHolds ? write(state, g.target(), WriteResult.applied()) : Optional.empty();
            default:
                return guardHolds
                        ? write(state, g.target(), result.targetResult().orElseThrow())
                        : Optional.empty();
        }
    }

    /** A write that answered {@code result}: applied where its precondition holds, a conflict (matching the reported current value) where it does not. */
    private static Optional<Map<MetaKey, MetaValue>> write(
            Map<MetaKey, MetaValue> state, Mutation m, WriteResult result) {
        if (result.isApplied()) {
            return applies(state, m) ? Optional.of(after(state, m)) : Optional.empty();
        }
        Optional<MetaValue> current = current(state, m.key());
        boolean reportedRight =
                !result.isCurrentKnown() || result.currentValue().equals(current);
        return !m.preconditionHolds(current) && reportedRight ? Optional.of(state) : Optional.empty();
    }

    /**
     * A transaction: applied only where every condition and precondition holds; not applied
     * where some fail, naming exactly those, in the transaction's order (conditions first), each
     * with the value the key holds when the failure reports one.
     */
    private static Optional<Map<MetaKey, MetaValue>> transaction(
            Map<MetaKey, MetaValue> state, Transaction t, Outcome outcome) {
        List<MetaKey> failing = new ArrayList<>();
        for (Condition c : t.conditions()) {
            if (!c.isMet(current(state, c.key()))) {
                failing.add(c.key());
            }
        }
        for (Mutation m : t.mutations()) {
            if (!applies(state, m)) {
                failing.add(m.key());
            }
        }
        boolean applied = outcome instanceof Outcome.Unknown
                || ((Outcome.Transacted) outcome).result().isApplied();
        if (applied) {
            if (!failing.isEmpty()) {
                return Optional.empty();
            }
            Map<MetaKey, MetaValue> next = new HashMap<>(state);
            for (Mutation m : t.mutations()) {
                m.newValue().ifPresentOrElse(v -> next.put(m.key(), v), () -> next.remove(m.key()));
            }
            return Optional.of(Map.copyOf(next));
        }
        TransactionResult result = ((Outcome.Transacted) outcome).result();
        List<TransactionFailure> reported = result.failures();
        if (reported.size() != failing.size()) {
            return Optional.empty();
        }
        for (int i = 0; i < failing.size(); i++) {
            TransactionFailure f = reported.get(i);
            if (!f.key().equals(failing.get(i))
                    || (f.isCurrentKnown() && !f.currentValue().equals(current(state, f.key())))) {
                return Optional.empty();
            }
        }
        return Optional.of(state);
    }

    /**
     * A first page: at most {@code limit} entries, the prefix's first ones in key order with the
     * values they hold; without a token, every entry of the prefix. (A page may be shorter than
     * its limit and still hand back a token.)
     */
    private static boolean firstPage(Map<MetaKey, MetaValue> state, Call.FirstPage call, Outcome.Paged page) {
        KeyPrefix prefix = call.prefix();
        List<Entry> expected = state.entrySet().stream()
                .filter(e -> prefix.contains(e.getKey()))
                .sorted(Map.Entry.comparingByKey())
                .map(e -> new Entry(e.getKey(), e.getValue()))
                .toList();
        List<Entry> seen = page.entries();
        if (seen.size() > call.limit() || seen.size() > expected.size()) {
            return false;
        }
        if (!page.hasMore() && seen.size() != expected.size()) {
            return false;
        }
        return seen.equals(expected.subList(0, seen.size()));
    }

    private static boolean applies(Map<MetaKey, MetaValue> state, Mutation m) {
        return m.preconditionHolds(current(state, m.key()));
    }

    private static Map<MetaKey, MetaValue> after(Map<MetaKey, MetaValue> state, Mutation m) {
        Map<MetaKey, MetaValue> next = new HashMap<>(state);
        m.newValue().ifPresentOrElse(v -> next.put(m.key(), v), () -> next.remove(m.key()));
        return Map.copyOf(next);
    }

    private static Optional<MetaValue> current(Map<MetaKey, MetaValue> state, MetaKey key) {
        return Optional.ofNullable(state.get(key));
    }
}
