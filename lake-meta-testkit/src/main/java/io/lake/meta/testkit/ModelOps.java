package io.lake.meta.testkit;

import static org.quicktheories.generators.SourceDSL.integers;
import static org.quicktheories.generators.SourceDSL.lists;

import io.lake.meta.Condition;
import io.lake.meta.Entry;
import io.lake.meta.GuardedMutation;
import io.lake.meta.InvalidPageTokenException;
import io.lake.meta.KeyPrefix;
import io.lake.meta.Limits;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.Mutation;
import io.lake.meta.Page;
import io.lake.meta.PageRequest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.quicktheories.api.Pair;
import org.quicktheories.core.Gen;
import org.quicktheories.generators.Generate;

/**
 * Random operations for the model-equivalence properties: a small key space (so conflicts are
 * common), right and wrong expected bytes, guarded writes, transactions (duplicate keys and
 * missing mutations included), pages with valid and invalid limits,
 * continuation, foreign and garbage tokens, and invalid arguments. Every operation prints as a
 * short call, so a shrunk counterexample reads like a script.
 */
final class ModelOps {

    static final List<String> KEYS = List.of("a/1", "a/2", "a/10", "a/1/x", "a/\u00e9", "b/1", "b/2");
    static final List<String> VALUES = List.of("", "x", "y", "xy");
    static final List<String> PREFIXES = List.of("a/", "a/1", "b/", "a/1/", "c/");
    static final List<Integer> LIMITS = List.of(1, 2, 3, 10, 0, -1, Limits.MAX_PAGE_LIMIT + 1);
    static final List<String> GARBAGE = List.of("x", "AAAA", "!!", "eyJ9", "AQAAAAAAAAAAAAAAAAAAAAAAAAAAAA", "a b");
    /** Families the properties write to; the final comparison reads them whole. */
    static final List<String> FAMILIES = List.of("a/", "b/");

    /** Stands for "the bytes the key holds now in the model" (or the first value when absent). */
    static final int CURRENT = -1;

    private ModelOps() {}

    /** What one store answered, or the class of what it threw. */
    record Outcome(Object answer) {
        static Outcome thrown(RuntimeException e) {
            return new Outcome("threw " + e.getClass().getSimpleName());
        }

        @Override
        public String toString() {
            return String.valueOf(answer);
        }
    }

    /** A page, reduced to what two backends must agree on: the entries and whether more follow. */
    record PageOutcome(List<String> entries, boolean hasMore) {
        static PageOutcome of(Page page) {
            return new PageOutcome(
                    page.entries().stream().map(ModelOps::describe).toList(), page.hasMore());
        }

        @Override
        public String toString() {
            return entries + (hasMore ? " +token" : " (end)");
        }
    }

    /** The tokens one store handed out, per prefix index: each store continues with its own. */
    static final class Tokens {
        final Map<Integer, String> byPrefix = new HashMap<>();
    }

    /** An operation, resolved against the model's state, then run on each store. */
    interface Op {
        Outcome run(MetaStore store, InMemoryMetaStore model, Tokens tokens, boolean pagesExact);
    }

    static String describe(Entry e) {
        return e.key() + "=" + e.value();
    }

    static MetaKey keyAt(int i) {
        return MetaKey.of(KEYS.get(i));
    }

    static MetaValue valueAt(int i) {
        return MetaValue.utf8(VALUES.get(i));
    }

    static MetaValue expectedBytes(int expected, int keyIndex, InMemoryMetaStore model) {
        return expected == CURRENT ? model.get(keyAt(keyIndex)).orElse(valueAt(0)) : valueAt(expected);
    }

    static String expectedName(int expected) {
        return expected == CURRENT ? "<current>" : '"' + VALUES.get(expected) + '"';
    }

    static Outcome attempt(java.util.function.Supplier<Object> call) {
        try {
            return new Outcome(call.get());
        } catch (RuntimeException e) {
            return Outcome.thrown(e);
        }
    }

    static Outcome page(
            MetaStore store, Tokens tokens, int prefixIndex, @Nullable String token, int limit, boolean pagesExact) {
        try {
            KeyPrefix prefix = KeyPrefix.of(PREFIXES.get(prefixIndex));
            PageRequest request =
                    token == null ? PageRequest.first(prefix, limit) : PageRequest.after(prefix, token, limit);
            Page page = store.page(request);
            ContractSupport.checkPage(prefix, limit, page);
            if (page.nextToken().isPresent()) {
                tokens.byPrefix.put(prefixIndex, page.nextToken().get());
            } else {
                tokens.byPrefix.remove(prefixIndex);
            }
            return new Outcome(pagesExact ? PageOutcome.of(page) : "a page");
        } catch (RuntimeException e) {
            return Outcome.thrown(e);
        }
    }

    record Get(int key) implements Op {
        @Override
        public Outcome run(MetaStore store, InMemoryMetaStore model, Tokens tokens, boolean pagesExact) {
            return attempt(() -> store.get(keyAt(key)));
        }

        @Override
        public String toString() {
            return "get(" + KEYS.get(key) + ")";
        }
    }

    /** A batch read of the generated keys (a key twice is an invalid argument). */
    record GetAll(List<Integer> keys) implements Op {
        @Override
        public Outcome run(MetaStore store, InMemoryMetaStore model, Tokens tokens, boolean pagesExact) {
            return attempt(() -> new ArrayList<>(
                    store.getAll(keys.stream().map(ModelOps::keyAt).toList()).entrySet()));
        }

        @Override
        public String toString() {
            return "getAll" + keys.stream().map(KEYS::get).toList();
        }
    }

    record Create(int key, int value) implements Op {
        @Override
        public Outcome run(MetaStore store, InMemoryMetaStore model, Tokens tokens, boolean pagesExact) {
            return attempt(() -> store.create(keyAt(key), valueAt(value)));
        }

        @Override
        public String toString() {
            return "create(" + KEYS.get(key) + ", \"" + VALUES.get(value) + "\")";
        }
    }

    record Update(int key, int expected, int value) implements Op {
        @Override
        public Outcome run(MetaStore store, InMemoryMetaStore model, Tokens tokens, boolean pagesExact) {
            MetaValue exp = expectedBytes(expected, key, model);
            return attempt(() -> store.update(keyAt(key), exp, valueAt(value)));
        }

        @Override
        public String toString() {
            return "update(" + KEYS.get(key) + ", " + expectedName(expected) + " -> \"" + VALUES.get(value) + "\")";
        }
    }

    record Delete(int key, int expected) implements Op {
        @Override
        public Outcome run(MetaStore store, InMemoryMetaStore model, Tokens tokens, boolean pagesExact) {
            MetaValue exp = expectedBytes(expected, key, model);
            return attempt(() -> store.delete(keyAt(key), exp));
        }

        @Override
        public String toString() {
            return "delete(" + KEYS.get(key) + ", " + expectedName(expected) + ")";
        }
    }

    /** kind: 0 create, 1 update, 2 delete. A guard equal to the target is an invalid argument. */
    record Guarded(int guard, int guardExpected, int kind, int target, int targetExpected) implements Op {
        @Override
        public Outcome run(MetaStore store, InMemoryMetaStore model, Tokens tokens, boolean pagesExact) {
            MetaValue g = expectedBytes(guardExpected, guard, model);
            MetaValue t = expectedBytes(targetExpected, target, model);
            MetaValue next = valueAt((targetExpected + 2) % VALUES.size());
            return attempt(() -> store.applyGuarded(new GuardedMutation(
                    keyAt(guard),
                    g,
                    switch (kind) {
                        case 0 -> Mutation.create(keyAt(target), next);
                        case 1 -> Mutation.update(keyAt(target), t, next);
                        default -> Mutation.delete(keyAt(target), t);
                    })));
        }

        @Override
        public String toString() {
            String next = "\"" + VALUES.get((targetExpected + 2) % VALUES.size()) + "\"";
            String target = switch (kind) {
                case 0 -> "create(" + KEYS.get(this.target) + ", " + next + ")";
                case 1 -> "update(" + KEYS.get(this.target) + ", " + expectedName(targetExpected) + " -> " + next + ")";
                default -> "delete(" + KEYS.get(this.target) + ", " + expectedName(targetExpected) + ")";
            };
            return "guarded[" + KEYS.get(guard) + " == " + expectedName(guardExpected) + "] " + target;
        }
    }

    /** One condition or mutation of a generated transaction; kind: 0 holds, 1 absent, 2 create, 3 update, 4 delete. */
    record TxStep(int kind, int key, int expected) {
        static final int KINDS = 5;

        MetaValue next() {
            return valueAt((Math.max(expected, 0) + 1) % VALUES.size());
        }

        @Override
        public String toString() {
            String k = KEYS.get(key);
            return switch (kind) {
                case 0 -> k + " == " + expectedName(expected);
                case 1 -> k + " absent";
                case 2 -> "create(" + k + ", \"" + VALUES.get((Math.max(expected, 0) + 1) % VALUES.size()) + "\")";
                case 3 ->
                    "update(" + k + ", " + expectedName(expected) + " -> \""
                            + VALUES.get((Math.max(expected, 0) + 1) % VALUES.size()) + "\")";
                default -> "delete(" + k + ", " + expectedName(expected) + ")";
            };
        }
    }

    /** A transaction of the generated steps, conditions and mutations in the order generated. */
    record Transact(List<TxStep> steps) implements Op {
        @Override
        public Outcome run(MetaStore store, InMemoryMetaStore model, Tokens tokens, boolean pagesExact) {
            List<Condition> conditions = new ArrayList<>();
            List<Mutation> mutations = new ArrayList<>();
            for (TxStep step : steps) {
                MetaKey k = keyAt(step.key());
                MetaValue exp = expectedBytes(step.expected(), step.key(), model);
                switch (step.kind()) {
                    case 0 -> conditions.add(Condition.holds(k, exp));
                    case 1 -> conditions.add(Condition.absent(k));
                    case 2 -> mutations.add(Mutation.create(k, step.next()));
                    case 3 -> mutations.add(Mutation.update(k, exp, step.next()));
                    default -> mutations.add(Mutation.delete(k, exp));
                }
            }
            return attempt(() -> store.transact(conditions, mutations));
        }

        @Override
        public String toString() {
            return "transact" + steps;
        }
    }

    record FirstPage(int prefix, int limit) implements Op {
        @Override
        public Outcome run(MetaStore store, InMemoryMetaStore model, Tokens tokens, boolean pagesExact) {
            return page(store, tokens, prefix, null, LIMITS.get(limit), pagesExact);
        }

        @Override
        public String toString() {
            return "page(" + PREFIXES.get(prefix) + ", limit " + LIMITS.get(limit) + ")";
        }
    }

    /** Continues the prefix with this store's own last token, or starts it when there is none. */
    record NextPage(int prefix, int limit) implements Op {
        @Override
        public Outcome run(MetaStore store, InMemoryMetaStore model, Tokens tokens, boolean pagesExact) {
            return page(store, tokens, prefix, tokens.byPrefix.get(prefix), LIMITS.get(limit), pagesExact);
        }

        @Override
        public String toString() {
            return "nextPage(" + PREFIXES.get(prefix) + ", limit " + LIMITS.get(limit) + ")";
        }
    }

    /** Uses the last token of one prefix with another prefix. */
    record ForeignToken(int tokenPrefix, int usedPrefix) implements Op {
        @Override
        public Outcome run(MetaStore store, InMemoryMetaStore model, Tokens tokens, boolean pagesExact) {
            // Whether a store holds a token at all may differ between backends whose pages split
            // differently; what must agree is that no store accepts another prefix's token.
            String token = tokens.byPrefix.get(tokenPrefix);
            if (token == null || tokenPrefix == usedPrefix) {
                return REFUSED_OR_NO_TOKEN;
            }
            Outcome outcome = page(store, new Tokens(), usedPrefix, token, 10, pagesExact);
            return outcome.equals(Outcome.thrown(new InvalidPageTokenException(""))) ? REFUSED_OR_NO_TOKEN : outcome;
        }

        private static final Outcome REFUSED_OR_NO_TOKEN = new Outcome("no foreign token accepted");

        @Override
        public String toString() {
            return "page(" + PREFIXES.get(usedPrefix) + ", token of " + PREFIXES.get(tokenPrefix) + ")";
        }
    }

    record GarbageToken(int prefix, int garbage) implements Op {
        @Override
        public Outcome run(MetaStore store, InMemoryMetaStore model, Tokens tokens, boolean pagesExact) {
            return page(store, new Tokens(), prefix, GARBAGE.get(garbage), 10, pagesExact);
        }

        @Override
        public String toString() {
            return "page(" + PREFIXES.get(prefix) + ", token \"" + GARBAGE.get(garbage) + "\")";
        }
    }

    /** Calls with arguments the contract rejects: each must throw the same typed error everywhere. */
    record Invalid(int which) implements Op {
        static final List<String> NAMES = List.of(
                "create(key \"A/1\")",
                "create(key \"a/\")",
                "create(key \"a/\\ud800\")",
                "create(a/1, 256 KiB + 1)",
                "get(null)",
                "apply(null)",
                "applyGuarded(null)",
                "guarded[a/1] update(a/1)",
                "page(null)");

        @Override
        @SuppressWarnings("NullAway") // hands null to non-null parameters on purpose: they must be refused
        public Outcome run(MetaStore store, InMemoryMetaStore model, Tokens tokens, boolean pagesExact) {
            return attempt(() -> switch (which) {
                case 0 -> store.create(MetaKey.of("A/1"), valueAt(1));
                case 1 -> store.create(MetaKey.of("a/"), valueAt(1));
                case 2 -> store.create(MetaKey.of("a/\ud800"), valueAt(1));
                case 3 -> store.create(keyAt(0), MetaValue.of(new byte[Limits.MAX_VALUE_BYTES + 1]));
                case 4 -> store.get(null);
                case 5 -> store.apply(null);
                case 6 -> store.applyGuarded(null);
                case 7 ->
                    store.applyGuarded(new GuardedMutation(
                            keyAt(0), valueAt(0), Mutation.update(keyAt(0), valueAt(0), valueAt(1))));
                default -> store.page((PageRequest) null);
            });
        }

        @Override
        public String toString() {
            return NAMES.get(which);
        }
    }

    /** Random operations, weighted towards writes on a small key space. */
    static Gen<Op> operations() {
        Gen<Integer> keyIndex = integers().between(0, KEYS.size() - 1);
        Gen<Integer> valueIndex = integers().between(0, VALUES.size() - 1);
        Gen<Integer> expectedIndex = integers().between(CURRENT, VALUES.size() - 1);
        // Mostly the busiest prefix and small limits, so pages often fill up with keys still to come.
        Gen<Integer> prefixIndex = Generate.frequency(List.of(
                Pair.of(3, Generate.constant(0)), Pair.of(2, integers().between(1, PREFIXES.size() - 1))));
        Gen<Integer> limitIndex = Generate.frequency(List.of(
                Pair.of(8, integers().between(0, 2)),
                Pair.of(1, Generate.constant(3)),
                Pair.of(1, integers().between(4, LIMITS.size() - 1))));

        Gen<Op> get = keyIndex.map(Get::new);
        Gen<Op> getAll = lists().of(keyIndex).ofSizeBetween(0, 4).map(GetAll::new);
        Gen<Op> create = keyIndex.zip(valueIndex, Create::new);
        Gen<Op> update = keyIndex.zip(expectedIndex, valueIndex, Update::new);
        Gen<Op> delete = keyIndex.zip(expectedIndex, Delete::new);
        Gen<Op> guarded = keyIndex.zip(expectedIndex, integers().between(0, 2), keyIndex, expectedIndex, Guarded::new);
        Gen<TxStep> txStep = integers().between(0, TxStep.KINDS - 1).zip(keyIndex, expectedIndex, TxStep::new);
        Gen<Op> transact = lists().of(txStep).ofSizeBetween(1, 4).map(Transact::new);
        Gen<Op> firstPage = prefixIndex.zip(limitIndex, FirstPage::new);
        Gen<Op> nextPage = prefixIndex.zip(limitIndex, NextPage::new);
        Gen<Op> foreign = prefixIndex.zip(prefixIndex, ForeignToken::new);
        Gen<Op> garbage = prefixIndex.zip(integers().between(0, GARBAGE.size() - 1), GarbageToken::new);
        Gen<Op> invalid = integers().between(0, Invalid.NAMES.size() - 1).map(Invalid::new);

        return Generate.frequency(List.of(
                Pair.of(2, get),
                Pair.of(1, getAll),
                Pair.of(6, create),
                Pair.of(5, update),
                Pair.of(2, delete),
                Pair.of(4, guarded),
                Pair.of(4, transact),
                Pair.of(3, firstPage),
                Pair.of(4, nextPage),
                Pair.of(1, foreign),
                Pair.of(1, garbage),
                Pair.of(1, invalid)));
    }

    /** Whether {@code store} holds nothing in the families the properties use. */
    static Optional<String> contentsIfNotEmpty(MetaStore store) {
        for (String family : FAMILIES) {
            Map<String, String> contents = ContractSupport.contents(store, family);
            if (!contents.isEmpty()) {
                return Optional.of(contents.toString());
            }
        }
        return Optional.empty();
    }
}
