package io.lake.meta.reliability.storm;

import io.lake.meta.GuardedMutation;
import io.lake.meta.GuardedResult;
import io.lake.meta.KeyPrefix;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaStoreException;
import io.lake.meta.MetaValue;
import io.lake.meta.Mutation;
import io.lake.meta.OutcomeUnknownException;
import io.lake.meta.StoreUnavailableException;
import io.lake.meta.Transaction;
import io.lake.meta.TransactionFailure;
import io.lake.meta.TransactionResult;
import io.lake.meta.WriteBarrierException;
import io.lake.meta.WriteResult;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;

/**
 * One client of the storm: appends its operation ids to its own keys, to shared keys (contended),
 * to two own keys at once in a transaction conditioned on a shared key, and to a key under a
 * guard; creates and deletes an ephemeral key only it writes, tracking what it must hold (after an
 * unknown outcome it reads the key back, as a caller resolves one); reads in between. Each answer
 * goes to the {@link StormLedger}; each error is held to its type and retryable flag.
 */
final class StormClient {

    static final MetaKey GUARD = MetaKey.of("lease/storm");
    private static final int MAX_LIST = 300;

    private final int id;
    private final Random r;
    private MetaStore store;
    private final StormLedger ledger;
    private final Set<MetaKey> touched;
    private final Map<String, LongAdder> errors;
    private final ConcurrentLinkedQueue<String> problems;
    private int ownGeneration;
    private int sharedGeneration;
    private long counter;
    private Optional<MetaValue> ephemeral = Optional.empty();
    private boolean ephemeralKnown = true;
    long calls;

    StormClient(
            int id,
            Random r,
            MetaStore store,
            StormLedger ledger,
            Set<MetaKey> touched,
            Map<String, LongAdder> errors,
            ConcurrentLinkedQueue<String> problems) {
        this.id = id;
        this.r = r;
        this.store = store;
        this.ledger = ledger;
        this.touched = touched;
        this.errors = errors;
        this.problems = problems;
    }

    /** Goes on through {@code next} (another store on the same data, as after a restart in a new mode). */
    void useStore(MetaStore next) {
        this.store = next;
    }

    static Set<MetaKey> newTouchedSet() {
        return ConcurrentHashMap.newKeySet();
    }

    MetaKey ephemeralKey() {
        return MetaKey.of("storm/c" + id + "/eph");
    }

    /** What the ephemeral key must hold now, if the client knows. */
    Optional<Optional<MetaValue>> ephemeralBelief() {
        return ephemeralKnown ? Optional.of(ephemeral) : Optional.empty();
    }

    private MetaKey own(int i) {
        return touch(MetaKey.of("storm/c" + id + "/g" + ownGeneration + "/k" + i));
    }

    private MetaKey shared(int j) {
        return touch(MetaKey.of("storm/shared/s" + j + "/g" + sharedGeneration));
    }

    private MetaKey touch(MetaKey key) {
        touched.add(key);
        return key;
    }

    void step() {
        int action = r.nextInt(100);
        try {
            if (action < 30) {
                append(own(r.nextInt(2)), true);
            } else if (action < 48) {
                append(shared(r.nextInt(2)), false);
            } else if (action < 63) {
                transaction();
            } else if (action < 73) {
                guarded();
            } else if (action < 78 && id == 0) {
                moveGuard();
            } else if (action < 90) {
                ephemeralStep();
            } else {
                read();
            }
        } catch (MetaStoreException e) {
            typed(e, "read");
        } catch (RuntimeException e) {
            problems.add("untyped error from the store: " + e);
        }
    }

    private String nextId() {
        return "c" + id + "n" + (++counter);
    }

    /** Sends a write; a refusal or an unknown outcome goes to the ledger here, an answer is returned. */
    private <T> Optional<T> call(
            Supplier<T> write, List<MetaKey> keys, Map<MetaKey, Optional<MetaValue>> expected, String opId) {
        calls++;
        try {
            return Optional.of(write.get());
        } catch (StoreUnavailableException | WriteBarrierException e) {
            typed(e, "write");
            ledger.record(new StormLedger.Write(opId, keys, expected, StormLedger.Answer.REFUSED, Map.of()));
        } catch (OutcomeUnknownException e) {
            typed(e, "write");
            ledger.record(new StormLedger.Write(opId, keys, expected, StormLedger.Answer.UNKNOWN, Map.of()));
        } catch (MetaStoreException e) {
            typed(e, "write");
        } catch (RuntimeException e) {
            problems.add("untyped error from a write: " + e);
        }
        return Optional.empty();
    }

    private void typed(MetaStoreException e, String what) {
        errors.computeIfAbsent(e.getClass().getSimpleName(), k -> new LongAdder())
                .increment();
        boolean expectedRetryable;
        if (e instanceof StoreUnavailableException || e instanceof WriteBarrierException) {
            expectedRetryable = true; // a barrier (a finalize of the migration) refuses a dual write: nothing moved
        } else if (e instanceof OutcomeUnknownException) {
            expectedRetryable = false;
            if (what.equals("read")) {
                problems.add(
                        "a read answered OutcomeUnknownException: a read changes nothing, its outcome is never unknown");
            }
        } else {
            problems.add("under faults the store must answer unavailable or unknown, not " + e);
            return;
        }
        if (e.retryable() != expectedRetryable) {
            problems.add(e.getClass().getSimpleName() + " says retryable=" + e.retryable());
        }
    }

    private void append(MetaKey key, boolean ownKey) {
        calls++;
        Optional<MetaValue> seen = store.get(key);
        if (StormLedger.ids(seen).size() > MAX_LIST) {
            if (ownKey) {
                ownGeneration++;
            } else {
                sharedGeneration++;
            }
            return;
        }
        String opId = nextId();
        Mutation m = seen.isEmpty()
                ? Mutation.create(key, StormLedger.append(seen, opId))
                : Mutation.update(key, seen.get(), StormLedger.append(seen, opId));
        call(() -> store.apply(m), List.of(key), Map.of(key, seen), opId)
                .ifPresent(result -> recordWrite(opId, key, seen, result));
    }

    private void recordWrite(String opId, MetaKey key, Optional<MetaValue> expected, WriteResult result) {
        ledger.record(new StormLedger.Write(
                opId,
                List.of(key),
                Map.of(key, expected),
                result.isApplied() ? StormLedger.Answer.APPLIED : StormLedger.Answer.CONFLICT,
                result.isConflict() && result.isCurrentKnown() ? Map.of(key, result.currentValue()) : Map.of()));
    }

    private void transaction() {
        MetaKey a = own(0);
        MetaKey b = own(1);
        MetaKey s = shared(0);
        calls++;
        Map<MetaKey, MetaValue> seen = store.getAll(List.of(a, b, s));
        if (StormLedger.ids(Optional.ofNullable(seen.get(a))).size() > MAX_LIST
                || StormLedger.ids(Optional.ofNullable(seen.get(b))).size() > MAX_LIST) {
            ownGeneration++;
            return;
        }
        String opId = nextId();
        Transaction.Builder t = Transaction.builder();
        Optional<MetaValue> seenS = Optional.ofNullable(seen.get(s));
        if (seenS.isPresent()) {
            t.requireHolds(s, seenS.get());
        } else {
            t.requireAbsent(s);
        }
        Map<MetaKey, Optional<MetaValue>> expected = new LinkedHashMap<>();
        for (MetaKey k : List.of(a, b)) {
            Optional<MetaValue> v = Optional.ofNullable(seen.get(k));
            expected.put(k, v);
            t.apply(
                    v.isEmpty()
                            ? Mutation.create(k, StormLedger.append(v, opId))
                            : Mutation.update(k, v.get(), StormLedger.append(v, opId)));
        }
        Transaction txn = t.build();
        call(() -> store.transact(txn), List.of(a, b), expected, opId).ifPresent(result -> {
            Map<MetaKey, Optional<MetaValue>> reported = new LinkedHashMap<>();
            for (TransactionFailure f : result.failures()) {
                if (f.isCurrentKnown() && expected.containsKey(f.key())) {
                    reported.put(f.key(), f.currentValue());
                } else if (f.isCurrentKnown()
                        && f.key().equals(s)
                        && f.currentValue().equals(seenS)) {
                    problems.add("false conflict: transaction " + opId + " failed its condition on " + s
                            + " reporting the very value it required");
                }
            }
            ledger.record(new StormLedger.Write(opId, List.of(a, b), expected, answerOf(result), reported));
        });
    }

    private static StormLedger.Answer answerOf(TransactionResult result) {
        return result.isApplied() ? StormLedger.Answer.APPLIED : StormLedger.Answer.CONFLICT;
    }

    private void guarded() {
        calls++;
        Optional<MetaValue> guard = store.get(GUARD);
        if (guard.isEmpty()) {
            return;
        }
        MetaKey key = own(2);
        calls++;
        Optional<MetaValue> seen = store.get(key);
        if (StormLedger.ids(seen).size() > MAX_LIST) {
            ownGeneration++;
            return;
        }
        String opId = nextId();
        Mutation m = seen.isEmpty()
                ? Mutation.create(key, StormLedger.append(seen, opId))
                : Mutation.update(key, seen.get(), StormLedger.append(seen, opId));
        call(
                        () -> store.applyGuarded(new GuardedMutation(GUARD, guard.get(), m)),
                        List.of(key),
                        Map.of(key, seen),
                        opId)
                .ifPresent(result -> {
                    if (result.outcome() == GuardedResult.Outcome.GUARD_REJECTED) {
                        ledger.record(new StormLedger.Write(
                                opId, List.of(key), Map.of(key, seen), StormLedger.Answer.CONFLICT, Map.of()));
                    } else if (result.isApplied()) {
                        recordWrite(opId, key, seen, WriteResult.applied());
                    } else {
                        recordWrite(opId, key, seen, result.targetResult().orElseThrow());
                    }
                });
    }

    private void moveGuard() {
        calls++;
        Optional<MetaValue> seen = store.get(GUARD);
        MetaValue next = MetaValue.utf8("guard-" + nextId());
        calls++;
        try {
            if (seen.isEmpty()) {
                store.create(GUARD, next);
            } else {
                store.update(GUARD, seen.get(), next);
            }
        } catch (StoreUnavailableException | OutcomeUnknownException | WriteBarrierException e) {
            typed(e, "write");
        }
    }

    /** Create and delete on a key only this client writes: a conflict there is always false. */
    private void ephemeralStep() {
        MetaKey key = ephemeralKey();
        if (!ephemeralKnown) {
            calls++;
            ephemeral = store.get(key); // resolves the unknown outcome
            ephemeralKnown = true;
        }
        Mutation m = ephemeral.isEmpty()
                ? Mutation.create(key, MetaValue.utf8(nextId()))
                : Mutation.delete(key, ephemeral.get());
        calls++;
        try {
            WriteResult result = store.apply(m);
            if (result.isApplied()) {
                ephemeral = m.newValue();
            } else {
                problems.add("false conflict on " + key + ", which only its owner writes: " + m + " -> " + result);
                ephemeralKnown = false;
            }
        } catch (OutcomeUnknownException e) {
            typed(e, "write");
            ephemeralKnown = false;
        } catch (StoreUnavailableException | WriteBarrierException e) {
            typed(e, "write"); // refused: nothing changed, the belief stands
        }
    }

    private void read() {
        calls++;
        switch (r.nextInt(3)) {
            case 0 -> store.get(shared(r.nextInt(2)));
            case 1 -> store.getAll(List.of(own(0), own(1), shared(1), GUARD));
            default -> store.page(KeyPrefix.of("storm/"), 1 + r.nextInt(20));
        }
    }
}
