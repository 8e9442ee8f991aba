package io.lake.meta.reliability;

import io.lake.meta.GuardedMutation;
import io.lake.meta.KeyPrefix;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaStoreException;
import io.lake.meta.MetaValue;
import io.lake.meta.Mutation;
import io.lake.meta.Transaction;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * One client of the mixed load the suites share: point and batch reads, first pages, creates,
 * compare-and-set updates, deletes, guarded writes with the current guard and with a guard it
 * knows is stale, and transactions over several keys with a condition on a shared key.
 *
 * <p>The key space keeps every history checkable on every backend:
 * <ul>
 *   <li>values are never reused (client, run tag and a counter), so a value read names the one
 *       write that wrote it;</li>
 *   <li>a client creates and deletes only its own keys {@code rel/c<id>/k<i>}: a DynamoDB SDK retry
 *       of a single-item write that had applied cannot then land again after someone else put the
 *       key back in the state it expected;</li>
 *   <li>the shared keys {@code rel/shared/s<j>} and the guard {@code lease/rel} are created once
 *       and then only updated (the guard only by client 0, its holder);</li>
 *   <li>{@code rel/c<id>/fenced} is written only by guarded creates under a guard the client saw
 *       replaced; guard values are never reused, so it must never exist.</li>
 * </ul>
 * Not thread-safe: one instance per thread.
 */
public final class MixedWorkload {

    public static final MetaKey GUARD = MetaKey.of("lease/rel");
    public static final KeyPrefix DATA = KeyPrefix.of("rel/");
    public static final int OWN_KEYS = 3;
    public static final int SHARED_KEYS = 2;

    private final int id;
    private final String tag;
    private final Random r;
    private final MetaStore store;
    private final Map<String, LongAdder> errors;
    private final List<MetaValue> staleGuards = new ArrayList<>();
    private MetaValue lastGuardSeen;
    private long counter;
    private long calls;

    /**
     * @param id this client's number (client 0 holds the guard)
     * @param tag makes values unique across runs on one store (such as a child JVM's incarnation)
     * @param errors where typed errors are counted by class name (shared by clients)
     */
    public MixedWorkload(int id, String tag, Random r, MetaStore store, Map<String, LongAdder> errors) {
        this.id = id;
        this.tag = tag;
        this.r = r;
        this.store = store;
        this.errors = errors;
    }

    /** A map to share between clients for {@link #MixedWorkload}'s error counts. */
    public static Map<String, LongAdder> errorCounts() {
        return new ConcurrentHashMap<>();
    }

    public static MetaKey own(int client, int i) {
        return MetaKey.of("rel/c" + client + "/k" + i);
    }

    public static MetaKey fenced(int client) {
        return MetaKey.of("rel/c" + client + "/fenced");
    }

    public static MetaKey shared(int j) {
        return MetaKey.of("rel/shared/s" + j);
    }

    /** Every key that {@code clients} clients may touch. */
    public static List<MetaKey> keys(int clients) {
        List<MetaKey> keys = new ArrayList<>();
        keys.add(GUARD);
        for (int j = 0; j < SHARED_KEYS; j++) {
            keys.add(shared(j));
        }
        for (int c = 0; c < clients; c++) {
            for (int i = 0; i < OWN_KEYS; i++) {
                keys.add(own(c, i));
            }
            keys.add(fenced(c));
        }
        return keys;
    }

    /** Calls made so far (each read and write counts). */
    public long calls() {
        return calls;
    }

    /**
     * One step: a few calls. A typed error is counted and ends the step (the next step reads
     * again); anything else propagates, for the suite to count as untyped.
     */
    public void step() {
        try {
            int action = r.nextInt(100);
            if (action < 12) {
                read();
            } else if (action < 16) {
                calls++;
                store.getAll(List.of(GUARD, shared(0), own(id, 0), own(id, r.nextInt(OWN_KEYS))).stream()
                        .distinct()
                        .toList());
            } else if (action < 20) {
                calls++;
                store.page(r.nextBoolean() ? DATA : KeyPrefix.of("rel/c" + id + "/"), 1 + r.nextInt(6));
            } else if (action < 42) {
                ownWrite();
            } else if (action < 57) {
                sharedWrite();
            } else if (action < 63 && id == 0) {
                guardWrite();
            } else if (action < 76) {
                guardedWrite();
            } else if (action < 82) {
                staleGuardedWrite();
            } else {
                transaction();
            }
        } catch (MetaStoreException e) {
            errors.computeIfAbsent(e.getClass().getSimpleName(), k -> new LongAdder())
                    .increment();
        }
    }

    private Optional<MetaValue> get(MetaKey key) {
        calls++;
        Optional<MetaValue> seen = store.get(key);
        if (key.equals(GUARD) && seen.isPresent()) {
            if (lastGuardSeen != null && !lastGuardSeen.equals(seen.get())) {
                staleGuards.add(lastGuardSeen);
            }
            lastGuardSeen = seen.get();
        }
        return seen;
    }

    private void read() {
        int which = r.nextInt(4);
        get(
                which == 0
                        ? GUARD
                        : which == 1
                                ? shared(r.nextInt(SHARED_KEYS))
                                : own(r.nextInt(Math.max(1, id + 1)), r.nextInt(OWN_KEYS)));
    }

    private void ownWrite() {
        MetaKey key = own(id, r.nextInt(OWN_KEYS));
        Optional<MetaValue> seen = get(key);
        calls++;
        if (seen.isEmpty()) {
            store.create(key, fresh());
        } else if (r.nextInt(10) < 7) {
            store.update(key, seen.get(), fresh());
        } else {
            store.delete(key, seen.get());
        }
    }

    private void sharedWrite() {
        MetaKey key = shared(r.nextInt(SHARED_KEYS));
        Optional<MetaValue> seen = get(key);
        calls++;
        if (seen.isEmpty()) {
            store.create(key, fresh());
        } else {
            store.update(key, seen.get(), fresh());
        }
    }

    private void guardWrite() {
        Optional<MetaValue> seen = get(GUARD);
        calls++;
        if (seen.isEmpty()) {
            store.create(GUARD, fresh());
        } else {
            store.update(GUARD, seen.get(), fresh());
        }
    }

    private void guardedWrite() {
        Optional<MetaValue> guard = get(GUARD);
        if (guard.isEmpty()) {
            return;
        }
        MetaKey key = own(id, r.nextInt(OWN_KEYS));
        Optional<MetaValue> seen = get(key);
        Mutation target = seen.isEmpty()
                ? Mutation.create(key, fresh())
                : r.nextInt(4) == 0 ? Mutation.delete(key, seen.get()) : Mutation.update(key, seen.get(), fresh());
        calls++;
        store.applyGuarded(new GuardedMutation(GUARD, guard.get(), target));
    }

    private void staleGuardedWrite() {
        if (staleGuards.isEmpty()) {
            get(GUARD);
            return;
        }
        MetaValue stale = staleGuards.get(r.nextInt(staleGuards.size()));
        calls++;
        store.applyGuarded(new GuardedMutation(GUARD, stale, Mutation.create(fenced(id), fresh())));
    }

    private void transaction() {
        MetaKey a = own(id, r.nextInt(OWN_KEYS));
        MetaKey b = own(id, (a.toString().endsWith("0") ? 1 : 0));
        MetaKey s = shared(r.nextInt(SHARED_KEYS));
        Optional<MetaValue> seenS = get(s);
        Optional<MetaValue> seenA = get(a);
        Optional<MetaValue> seenB = get(b);
        Transaction.Builder t = Transaction.builder();
        if (seenS.isPresent() && r.nextInt(3) > 0) {
            t.requireHolds(s, seenS.get());
        } else if (seenS.isEmpty()) {
            t.requireAbsent(s);
        }
        t.apply(seenA.isEmpty() ? Mutation.create(a, fresh()) : Mutation.update(a, seenA.get(), fresh()));
        t.apply(
                seenB.isEmpty()
                        ? Mutation.create(b, fresh())
                        : r.nextBoolean() ? Mutation.delete(b, seenB.get()) : Mutation.update(b, seenB.get(), fresh()));
        calls++;
        store.transact(t.build());
    }

    private MetaValue fresh() {
        return MetaValue.utf8("c" + id + "-" + tag + "-" + (++counter));
    }
}
