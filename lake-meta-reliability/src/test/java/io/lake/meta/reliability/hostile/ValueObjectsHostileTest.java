package io.lake.meta.reliability.hostile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.quicktheories.QuickTheory.qt;
import static org.quicktheories.generators.SourceDSL.lists;

import io.lake.meta.Condition;
import io.lake.meta.Entry;
import io.lake.meta.GuardedMutation;
import io.lake.meta.KeyPrefix;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaValue;
import io.lake.meta.Mutation;
import io.lake.meta.PageRequest;
import io.lake.meta.Transaction;
import io.lake.meta.TransactionFailure;
import io.lake.meta.TransactionResult;
import io.lake.meta.WriteResult;
import io.lake.meta.fenced.FencedMetaStore;
import io.lake.meta.lease.LeaderElection;
import io.lake.meta.lease.LeaseGuard;
import io.lake.meta.lease.LeaseRecord;
import io.lake.meta.reliability.Runs;
import io.lake.meta.rocks.RocksDbMetaStore;
import io.lake.meta.testkit.InMemoryMetaStore;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import org.quicktheories.api.Pair;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

/**
 * Every public value-object factory and constructor of the api, the lease records and guards, the
 * recipe's and the RocksDB store's builders and the fenced store's factory, fed hostile input by QuickTheories: each call either succeeds or is
 * refused with the exception the entry point documents (the contract's family; for builders also
 * IllegalStateException for an option set twice or missing), with a message. Anything else is an untyped error.
 *
 * <p>Sizes: {@code -Dlake.meta.reliability.valueObjectCalls=N} (20 000 by default, 700 000 under
 * {@code -Ptorture}).
 */
class ValueObjectsHostileTest {

    /** One hostile call: what it is (for reports), what it may throw, and the call. */
    record Case(String what, Set<Class<? extends RuntimeException>> allowed, Callable<?> call) {}

    @Test
    void everyFactory_refusesHostileInput_withATypedError() {
        long seed = Runs.seed("hostile-value-objects");
        int calls = Runs.size("valueObjectCalls", 20_000, 700_000);
        Verdicts verdicts = new Verdicts();
        qt().withFixedSeed(seed)
                .withExamples(calls)
                .withShrinkCycles(0)
                .forAll(cases())
                .checkAssert(c -> verdicts.run(c.what(), c.allowed(), c.call()));
        Runs.figures("hostile-value-objects", verdicts.figures());
        assertThat(verdicts.untypedExamples()).as("untyped errors (seed above)").isEmpty();
    }

    static Gen<Case> cases() {
        Gen<String> text = HostileGens.text();
        Gen<MetaKey> key = text.map(ValueObjectsHostileTest::keyOrNull);
        Gen<MetaValue> value = text.map(t -> t == null ? null : MetaValue.of(t.getBytes(StandardCharsets.UTF_8)));
        Gen<Long> longs = Generate.pick(List.of(Long.MIN_VALUE, -1L, 0L, 1L, Long.MAX_VALUE - 1, Long.MAX_VALUE));
        List<Pair<Integer, Gen<Case>>> all = new ArrayList<>();
        all.add(Pair.of(3, text.map(t -> contract("MetaKey.of(" + Verdicts.show(t) + ")", () -> MetaKey.of(t)))));
        all.add(Pair.of(
                2,
                HostileGens.bytes()
                        .map(b -> contract("MetaKey.fromUtf8(" + show(b) + ")", () -> MetaKey.fromUtf8(b)))));
        all.add(Pair.of(2, text.map(t -> contract("KeyPrefix.of(" + Verdicts.show(t) + ")", () -> KeyPrefix.of(t)))));
        all.add(Pair.of(
                2, text.map(t -> contract("KeyPrefix.family(" + Verdicts.show(t) + ")", () -> KeyPrefix.family(t)))));
        all.add(Pair.of(
                2, text.map(t -> contract("MetaValue.utf8(" + Verdicts.show(t) + ")", () -> MetaValue.utf8(t)))));
        all.add(Pair.of(
                1,
                HostileGens.valueSizes()
                        .map(n -> contract("MetaValue.of(" + n + " bytes)", () -> MetaValue.of(new byte[n])))));
        all.add(Pair.of(
                1, HostileGens.bytes().map(b -> contract("MetaValue.of(" + show(b) + ")", () -> MetaValue.of(b)))));
        all.add(Pair.of(
                2,
                text.zip(
                        HostileGens.limits(),
                        (t, limit) -> contract(
                                "PageRequest.first(" + Verdicts.show(t) + ", " + limit + ")",
                                () -> PageRequest.first(prefixOrNull(t), limit)))));
        all.add(Pair.of(
                2,
                text.zip(
                        HostileGens.tokenish(),
                        HostileGens.limits(),
                        (t, token, limit) -> contract(
                                "PageRequest.after(" + Verdicts.show(t) + ", " + Verdicts.show(token) + ", " + limit
                                        + ")",
                                () -> PageRequest.after(prefixOrNull(t), token, limit)))));
        all.add(Pair.of(
                2,
                key.zip(
                        value,
                        value,
                        (k, v, w) -> contract("Mutation.*(" + k + ", " + v + ", " + w + ")", () -> {
                            Mutation.create(k, v);
                            Mutation.update(k, v, w);
                            return Mutation.delete(k, w);
                        }))));
        all.add(Pair.of(
                1,
                key.zip(
                        value,
                        (k, v) -> contract("Condition.*(" + k + ", " + v + ")", () -> {
                            Condition.absent(k);
                            return Condition.holds(k, v);
                        }))));
        all.add(Pair.of(
                1, key.zip(value, (k, v) -> contract("new Entry(" + k + ", " + v + ")", () -> new Entry(k, v)))));
        all.add(Pair.of(2, transactions()));
        all.add(Pair.of(
                1,
                key.zip(
                        value,
                        key,
                        (g, v, t) -> contract(
                                "new GuardedMutation(" + g + ", " + v + ", create " + t + ")",
                                () -> new GuardedMutation(
                                        g, v, t == null ? null : Mutation.create(t, MetaValue.utf8("x")))))));
        all.add(Pair.of(
                1,
                Generate.pick(List.of(0, 1, 2, 3))
                        .zip(key, (n, k) -> contract("results(" + n + ", " + k + ")", () -> results(n, k)))));
        all.add(Pair.of(
                2,
                HostileGens.bytes()
                        .map(b -> contract(
                                "LeaseRecord.decode(" + show(b) + ")",
                                () -> LeaseRecord.decode(MetaKey.of("lease/x"), b == null ? null : MetaValue.of(b))))));
        all.add(Pair.of(
                2,
                leaseJson()
                        .map(j -> contract(
                                "LeaseRecord.decode(" + Verdicts.show(j) + ")",
                                () -> LeaseRecord.decode(MetaKey.of("lease/x"), MetaValue.utf8(j))))));
        all.add(Pair.of(
                1,
                text.zip(
                        longs,
                        longs,
                        (h, e, x) -> contract(
                                "LeaseRecord.held(" + Verdicts.show(h) + ", " + e + ", " + x + ")",
                                () -> LeaseRecord.held(h, e, x, h).encode()))));
        all.add(Pair.of(
                1,
                longs.zip(
                        text,
                        (e, n) -> contract(
                                "LeaseRecord.vacant(" + e + ", " + Verdicts.show(n) + ")",
                                () -> LeaseRecord.vacant(e, e, n).encode()))));
        all.add(Pair.of(
                1,
                key.zip(
                        value,
                        longs,
                        (k, v, e) -> contract(
                                "new LeaseGuard(" + k + ", " + v + ", " + e + ")", () -> new LeaseGuard(k, v, e, e)))));
        all.add(Pair.of(
                1,
                text.zip(
                        Generate.pick(List.of(-1L, 0L, 1L, 3_000L, 10_000L, Long.MAX_VALUE)),
                        (id, ms) -> new Case(
                                "LeaderElection.builder()(" + Verdicts.show(id) + ", " + ms + " ms)",
                                Verdicts.BUILDERS,
                                () -> electionBuilder(id, ms)))));
        all.add(Pair.of(
                1,
                Generate.range(0, 6)
                        .map(n -> new Case(
                                "RocksDbMetaStore.builder() misuse " + n, Verdicts.BUILDERS, () -> rocksBuilder(n)))));
        all.add(Pair.of(
                1, Generate.range(0, 3).map(n -> contract("FencedMetaStore.over misuse " + n, () -> fencedOver(n)))));
        return Generate.frequency(all);
    }

    /** Configuration mistakes on the RocksDB builder: nulls, options set twice, no directory; none opens anything. */
    private static Object rocksBuilder(int n) {
        RocksDbMetaStore.Builder b = RocksDbMetaStore.builder();
        return switch (n) {
            case 0 -> b.directory(null);
            case 1 -> b.directory(java.nio.file.Path.of("a")).directory(java.nio.file.Path.of("b"));
            case 2 -> b.durability(null);
            case 3 -> b.raceHooks(null);
            case 4 -> b.createIfMissing(true).createIfMissing(false);
            case 5 ->
                b.durability(io.lake.meta.rocks.Durability.SYNCED_WAL)
                        .durability(io.lake.meta.rocks.Durability.UNSYNCED_WAL);
            default -> b.build();
        };
    }

    private static io.lake.meta.lease.LeaseAuthority noGuard() {
        return new io.lake.meta.lease.LeaseAuthority() {
            @Override
            public MetaKey leaseKey() {
                return MetaKey.of("lease/x");
            }

            @Override
            public Optional<LeaseGuard> currentGuard() {
                return Optional.empty();
            }
        };
    }

    private static Object fencedOver(int n) {
        try (InMemoryMetaStore store = InMemoryMetaStore.create()) {
            return switch (n) {
                case 0 -> FencedMetaStore.over(null, null);
                case 1 -> FencedMetaStore.over(store, null);
                case 2 -> FencedMetaStore.over(null, noGuard());
                default -> FencedMetaStore.over(store, noGuard()).apply(null);
            };
        }
    }

    private static Case contract(String what, Callable<?> call) {
        return new Case(what, Verdicts.CONTRACT, call);
    }

    /** A key for a store call: the text as a key where it is one, else null (itself hostile). */
    static MetaKey keyOrNull(String text) {
        try {
            return MetaKey.of(text);
        } catch (RuntimeException e) {
            return null;
        }
    }

    static KeyPrefix prefixOrNull(String text) {
        try {
            return KeyPrefix.of(text);
        } catch (RuntimeException e) {
            return null;
        }
    }

    private static String show(byte[] b) {
        return b == null ? "null" : b.length + " bytes";
    }

    /** Transactions of hostile shape: nulls, a key twice, no mutation, too many keys, too many bytes. */
    private static Gen<Case> transactions() {
        Gen<Integer> shape = Generate.range(0, 7);
        Gen<List<Integer>> picks = lists().of(Generate.range(-1, 4)).ofSizeBetween(0, 5);
        return shape.zip(
                picks,
                picks,
                (s, conditionKeys, mutationKeys) -> contract(
                        "Transaction(shape " + s + ", " + conditionKeys + ", " + mutationKeys + ")",
                        () -> transaction(s, conditionKeys, mutationKeys)));
    }

    private static Object transaction(int shape, List<Integer> conditionKeys, List<Integer> mutationKeys) {
        List<Condition> conditions = new ArrayList<>();
        for (int k : conditionKeys) {
            conditions.add(k < 0 ? null : Condition.absent(MetaKey.of("tbl/k" + k)));
        }
        List<Mutation> mutations = new ArrayList<>();
        for (int k : mutationKeys) {
            mutations.add(k < 0 ? null : Mutation.create(MetaKey.of("tbl/k" + k), MetaValue.utf8("v")));
        }
        switch (shape) {
            case 0:
                return Transaction.of(null, mutations);
            case 1:
                return Transaction.of(conditions, null);
            case 2: {
                List<Mutation> many = new ArrayList<>();
                for (int i = 0; i < 101; i++) {
                    many.add(Mutation.create(MetaKey.of("tbl/m" + i), MetaValue.utf8("v")));
                }
                return Transaction.of(conditions, many);
            }
            case 3: {
                List<Mutation> big = new ArrayList<>();
                for (int i = 0; i < 9; i++) {
                    big.add(Mutation.create(MetaKey.of("tbl/b" + i), MetaValue.of(new byte[256 * 1024])));
                }
                return Transaction.of(List.of(), big);
            }
            case 4: {
                Transaction.Builder b = Transaction.builder();
                conditions.forEach(b::require);
                mutations.forEach(b::apply);
                return b.build();
            }
            default:
                return Transaction.of(conditions, mutations);
        }
    }

    private static Object results(int shape, MetaKey key) {
        return switch (shape) {
            case 0 -> WriteResult.conflict(null);
            case 1 ->
                TransactionResult.notApplied(
                        key == null
                                ? null
                                : List.of(
                                        TransactionFailure.currentUnknown(key),
                                        TransactionFailure.found(key, Optional.empty())));
            case 2 -> TransactionResult.notApplied(List.of());
            default -> TransactionFailure.found(key, null);
        };
    }

    /** JSON that is almost a lease record: fields missing, doubled, of the wrong type, out of range, trailing junk. */
    private static Gen<String> leaseJson() {
        Gen<String> field = Generate.pick(List.of(
                "\"holder\":\"a\"",
                "\"holder\":\"\"",
                "\"holder\":1",
                "\"holder\":null",
                "\"epoch\":1",
                "\"epoch\":-1",
                "\"epoch\":1.5",
                "\"epoch\":\"1\"",
                "\"epoch\":99999999999999999999",
                "\"expiresAtMillis\":5",
                "\"expiresAtMillis\":-5",
                "\"nonce\":\"n\"",
                "\"nonce\":{}",
                "\"x\":[1,2]",
                "\"holder\":\"\\ud800\""));
        return lists().of(field)
                .ofSizeBetween(0, 5)
                .zip(
                        Generate.pick(List.of("", "x", "}", " ", "{}")),
                        (fields, tail) -> "{" + String.join(",", fields) + "}" + tail);
    }

    private static Object electionBuilder(String candidate, long millis) {
        try (InMemoryMetaStore store = InMemoryMetaStore.create()) {
            LeaderElection.Builder b = LeaderElection.builder()
                    .store(store)
                    .leaseKey(MetaKey.of("lease/x"))
                    .candidateId(candidate);
            if (millis != 3_000L) {
                b.leaseDuration(Duration.ofMillis(millis));
            }
            b.renewInterval(Duration.ofMillis(Math.min(millis, 3_000L) <= 0 ? millis : 3_000L));
            try (LeaderElection e = b.build()) {
                return e.candidateId();
            }
        }
    }
}
