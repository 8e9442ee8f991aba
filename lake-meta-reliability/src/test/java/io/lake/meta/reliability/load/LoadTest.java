package io.lake.meta.reliability.load;

import static org.assertj.core.api.Assertions.assertThat;

import io.lake.meta.GuardedMutation;
import io.lake.meta.GuardedResult;
import io.lake.meta.KeyPrefix;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaStoreException;
import io.lake.meta.MetaValue;
import io.lake.meta.Mutation;
import io.lake.meta.OutcomeUnknownException;
import io.lake.meta.Transaction;
import io.lake.meta.reliability.DynamoStores;
import io.lake.meta.reliability.Runs;
import io.lake.meta.rocks.RocksDbMetaStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * Many threads for a sustained period on RocksDB and on DynamoDB (in-process, no faults), mixing
 * compare-and-set increments of shared counters, transfers between accounts in transactions,
 * guarded appends under a guard that one thread keeps moving (and appends under guards known to
 * be stale), batch reads and pages. At the end:
 * <ul>
 *   <li>every counter equals the increments acknowledged on it (plus at most the unknown ones);</li>
 *   <li>the accounts still sum to what they started with (transactions are all or nothing);</li>
 *   <li>each guarded target holds every acknowledged append, in guard order (never an append under
 *       an older guard after one under a newer), and none that was sent with a stale guard.</li>
 * </ul>
 * Sizes: {@code -Dlake.meta.reliability.loadSeconds=N} (4 by default, 180 under {@code -Ptorture}).
 */
class LoadTest {

    private static final int THREADS = 12;
    private static final int COUNTERS = 6;
    private static final int ACCOUNTS = 6;
    private static final int TARGETS = 3;
    private static final long BALANCE = 1_000;
    private static final MetaKey GUARD = MetaKey.of("lease/load");

    @TempDir
    Path work;

    @Test
    void rocksDb_manyThreads_keepEveryInvariant() throws Exception {
        try (MetaStore store =
                RocksDbMetaStore.builder().directory(work.resolve("rocks")).build()) {
            run("load-rocksdb", store);
        }
    }

    @Test
    void dynamoDb_manyThreads_keepEveryInvariant() throws Exception {
        try (DynamoDbClient client = DynamoStores.target().newClient();
                MetaStore store = DynamoStores.newStore(client, "load", 8)) {
            run("load-dynamodb", store);
        }
    }

    private static MetaKey counter(int i) {
        return MetaKey.of("load/counter/" + i);
    }

    private static MetaKey account(int i) {
        return MetaKey.of("load/account/" + i);
    }

    private static MetaKey target(int i, int generation) {
        return MetaKey.of("load/target/" + i + "/g" + generation);
    }

    private static long number(Optional<MetaValue> v) {
        return Long.parseLong(v.orElseThrow().asUtf8());
    }

    private void run(String area, MetaStore store) throws Exception {
        long seed = Runs.seed(area);
        int seconds = Runs.size("loadSeconds", 4, 180);
        for (int i = 0; i < COUNTERS; i++) {
            store.create(counter(i), MetaValue.utf8("0"));
        }
        for (int i = 0; i < ACCOUNTS; i++) {
            store.create(account(i), MetaValue.utf8(Long.toString(BALANCE)));
        }
        for (int i = 0; i < TARGETS; i++) {
            store.create(target(i, 0), MetaValue.empty());
        }
        store.create(GUARD, MetaValue.utf8("0"));
        Shared shared = new Shared();
        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            List<Future<?>> running = new ArrayList<>();
            Random seeds = new Random(seed);
            for (int t = 0; t < THREADS; t++) {
                Worker w = new Worker(t, new Random(seeds.nextLong()), store, shared);
                running.add(pool.submit(() -> {
                    while (System.nanoTime() < deadline) {
                        w.step();
                    }
                    return null;
                }));
            }
            for (Future<?> f : running) {
                f.get(seconds + 300L, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }

        List<String> violations = new ArrayList<>(shared.problems);
        for (int i = 0; i < COUNTERS; i++) {
            long value = number(store.get(counter(i)));
            long acked = shared.increments.get(i).sum();
            long unknown = shared.unknownIncrements.get(i).sum();
            if (value < acked || value > acked + unknown) {
                violations.add(counter(i) + " = " + value + " after " + acked + " acknowledged increments (" + unknown
                        + " unknown)");
            }
        }
        long sum = 0;
        for (int i = 0; i < ACCOUNTS; i++) {
            sum += number(store.get(account(i)));
        }
        if (sum != BALANCE * ACCOUNTS) {
            violations.add("the accounts sum to " + sum + ", not " + BALANCE * ACCOUNTS);
        }
        for (Map.Entry<MetaKey, ConcurrentLinkedQueue<String>> written : shared.guardedApplied.entrySet()) {
            MetaKey key = written.getKey();
            String text = store.get(key).orElseThrow().asUtf8();
            long lastGuard = -1;
            Set<String> present = ConcurrentHashMap.newKeySet();
            for (String entry : text.isEmpty() ? new String[0] : text.split(",")) {
                long guard = Long.parseLong(entry.substring(0, entry.indexOf('.')));
                if (guard < lastGuard) {
                    violations.add(key + ": an append under guard " + guard + " after one under guard " + lastGuard);
                }
                lastGuard = guard;
                present.add(entry);
            }
            for (String acked : written.getValue()) {
                if (!present.contains(acked)) {
                    violations.add(key + ": the acknowledged append " + acked + " is missing");
                }
            }
            for (String stale : shared.staleSent.getOrDefault(key, new ConcurrentLinkedQueue<>())) {
                if (present.contains(stale)) {
                    violations.add(key + ": the append " + stale + ", sent with a stale guard, applied");
                }
            }
        }
        Runs.figures(
                area,
                "seconds=" + seconds + ", threads=" + THREADS + ", operations completed=" + shared.operations
                        + ", increments acknowledged="
                        + shared.increments.stream().mapToLong(LongAdder::sum).sum()
                        + ", transfers applied=" + shared.transfers + ", guarded appends applied="
                        + shared.guardedApplied.values().stream()
                                .mapToInt(ConcurrentLinkedQueue::size)
                                .sum() + ", targets filled="
                        + shared.generations.stream()
                                .mapToInt(java.util.concurrent.atomic.AtomicInteger::get)
                                .sum() + ", stale guarded writes refused="
                        + shared.staleRefused + ", guard moves=" + shared.guardMoves + ", errors by type="
                        + shared.errors
                        + ", invariant violations=" + violations.size());
        assertThat(violations).as("invariants broken (seed above)").isEmpty();
    }

    /** What every worker adds to. */
    private static final class Shared {
        final List<LongAdder> increments = new ArrayList<>();
        final List<LongAdder> unknownIncrements = new ArrayList<>();
        final Map<MetaKey, ConcurrentLinkedQueue<String>> guardedApplied = new ConcurrentHashMap<>();
        final Map<MetaKey, ConcurrentLinkedQueue<String>> staleSent = new ConcurrentHashMap<>();
        final List<java.util.concurrent.atomic.AtomicInteger> generations = new ArrayList<>();
        final ConcurrentLinkedQueue<String> problems = new ConcurrentLinkedQueue<>();
        final Map<String, LongAdder> errors = new ConcurrentHashMap<>();
        final AtomicLong operations = new AtomicLong();
        final LongAdder transfers = new LongAdder();
        final LongAdder staleRefused = new LongAdder();
        final LongAdder guardMoves = new LongAdder();

        Shared() {
            for (int i = 0; i < COUNTERS; i++) {
                increments.add(new LongAdder());
                unknownIncrements.add(new LongAdder());
            }
            for (int i = 0; i < TARGETS; i++) {
                generations.add(new java.util.concurrent.atomic.AtomicInteger());
                guardedApplied.put(target(i, 0), new ConcurrentLinkedQueue<>());
            }
        }
    }

    private static final class Worker {
        final int id;
        final Random r;
        final MetaStore store;
        final Shared shared;
        long n;
        long oldestGuardSeen = -1;

        Worker(int id, Random r, MetaStore store, Shared shared) {
            this.id = id;
            this.r = r;
            this.store = store;
            this.shared = shared;
        }

        void step() {
            int action = r.nextInt(100);
            try {
                if (id == 0 && action < 10) {
                    moveGuard();
                } else if (action < 40) {
                    increment(r.nextInt(COUNTERS));
                } else if (action < 60) {
                    transfer();
                } else if (action < 80) {
                    guardedAppend(false);
                } else if (action < 85) {
                    guardedAppend(true);
                } else if (action < 93) {
                    store.getAll(List.of(
                            counter(0),
                            account(1),
                            target(2, shared.generations.get(2).get()),
                            GUARD));
                } else {
                    store.page(KeyPrefix.of("load/"), 1 + r.nextInt(20));
                }
                shared.operations.incrementAndGet();
            } catch (MetaStoreException e) {
                shared.errors
                        .computeIfAbsent(e.getClass().getSimpleName(), k -> new LongAdder())
                        .increment();
            } catch (RuntimeException e) {
                shared.problems.add("untyped error: " + e);
            }
        }

        private void increment(int i) {
            Optional<MetaValue> seen = store.get(counter(i));
            long next = number(seen) + 1;
            try {
                if (store.update(counter(i), seen.get(), MetaValue.utf8(Long.toString(next)))
                        .isApplied()) {
                    shared.increments.get(i).increment();
                }
            } catch (OutcomeUnknownException e) {
                shared.unknownIncrements.get(i).increment();
                throw e;
            }
        }

        private void transfer() {
            int from = r.nextInt(ACCOUNTS);
            int to = (from + 1 + r.nextInt(ACCOUNTS - 1)) % ACCOUNTS;
            Map<MetaKey, MetaValue> seen = store.getAll(List.of(account(from), account(to)));
            long a = number(Optional.ofNullable(seen.get(account(from))));
            long b = number(Optional.ofNullable(seen.get(account(to))));
            long amount = 1 + r.nextInt(10);
            Transaction t = Transaction.builder()
                    .update(account(from), seen.get(account(from)), MetaValue.utf8(Long.toString(a - amount)))
                    .update(account(to), seen.get(account(to)), MetaValue.utf8(Long.toString(b + amount)))
                    .build();
            if (store.transact(t).isApplied()) {
                shared.transfers.increment();
            }
        }

        private void moveGuard() {
            Optional<MetaValue> seen = store.get(GUARD);
            if (store.update(GUARD, seen.get(), MetaValue.utf8(Long.toString(number(seen) + 1)))
                    .isApplied()) {
                shared.guardMoves.increment();
            }
        }

        private void guardedAppend(boolean stale) {
            long guard = number(store.get(GUARD));
            if (oldestGuardSeen < 0) {
                oldestGuardSeen = guard;
            }
            int i = r.nextInt(TARGETS);
            int generation = shared.generations.get(i).get();
            MetaKey key = target(i, generation);
            Optional<MetaValue> seen = store.get(key);
            if (seen.isEmpty()) {
                return; // the next generation is being created
            }
            String text = seen.get().asUtf8();
            if (text.length() > 20_000) {
                // full: the next generation of this target takes the appends from now on
                if (shared.generations.get(i).compareAndSet(generation, generation + 1)) {
                    shared.guardedApplied.put(target(i, generation + 1), new ConcurrentLinkedQueue<>());
                    store.create(target(i, generation + 1), MetaValue.empty());
                }
                return;
            }
            long used = stale ? oldestGuardSeen : guard;
            if (stale && used == guard) {
                return; // the guard has not moved since this worker first saw it: nothing stale to send
            }
            String entry = used + ".w" + id + "n" + (++n);
            MetaValue next = MetaValue.utf8(text.isEmpty() ? entry : text + "," + entry);
            if (stale) {
                shared.staleSent
                        .computeIfAbsent(key, k -> new ConcurrentLinkedQueue<>())
                        .add(entry);
            }
            GuardedResult result = store.applyGuarded(new GuardedMutation(
                    GUARD, MetaValue.utf8(Long.toString(used)), Mutation.update(key, seen.get(), next)));
            if (result.isApplied()) {
                shared.guardedApplied.get(key).add(entry);
            } else if (stale && result.outcome() == GuardedResult.Outcome.GUARD_REJECTED) {
                shared.staleRefused.increment();
            }
        }
    }
}
