package io.lake.meta.cli.copy;

import static org.assertj.core.api.Assertions.assertThat;

import io.lake.meta.Entry;
import io.lake.meta.KeyPrefix;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.Mutation;
import io.lake.meta.OutcomeUnknownException;
import io.lake.meta.Page;
import io.lake.meta.PageRequest;
import io.lake.meta.StoreUnavailableException;
import io.lake.meta.Transaction;
import io.lake.meta.TransactionResult;
import io.lake.meta.WriteResult;
import io.lake.meta.copy.CopyReport;
import io.lake.meta.copy.StoreCopy;
import io.lake.meta.copy.Verification;
import io.lake.meta.spi.ForwardingMetaStore;
import io.lake.meta.testkit.InMemoryMetaStore;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The copy as a state machine under seeded random faults: random stores, prefixes, page sizes and
 * pre-existing target keys; each attempt is killed at a random transaction (before it is sent,
 * after it applied with the answer lost, after it applied with the process dying) or after a random
 * page, and run again until done. After every attempt the model is checked: no pre-existing key
 * changed, every other target key holds its source bytes, and the resume record counts each key
 * once. 60 seeds in the default build; {@code -Dlake.meta.copy.explorer.seeds=N} for more.
 *
 * <p>The second explorer also fails any call of the target (the record's creation and deletion,
 * its reads) and the source's reads (during the copy or its verification), and changes the source
 * between runs, as a writer left running would: the copy never writes a value the source did not
 * hold, and the verification that ends it counts exactly the differences the two stores hold.
 */
class StoreCopyExplorerTest {

    private static final int SEEDS = Integer.getInteger("lake.meta.copy.explorer.seeds", 60);
    private static final List<String> FAMILIES = List.of("tbl", "lease", "ops", "seq");
    private static final MetaKey RECORD = MetaKey.of("lake-meta-copy/resume");

    @Test
    void randomKillsAndResumes_keepTheModel() {
        for (int seed = 1; seed <= SEEDS; seed++) {
            explore(seed);
        }
    }

    private void explore(long seed) {
        Random random = new Random(seed);
        String context = "seed " + seed;
        List<KeyPrefix> prefixes = new ArrayList<>();
        for (String family : FAMILIES) {
            if (prefixes.isEmpty() || random.nextBoolean()) {
                prefixes.add(KeyPrefix.family(family));
            }
        }
        // a third of the seeds name no prefix: the copy then takes every family the source lists
        boolean everyFamily = random.nextInt(3) == 0;
        try (InMemoryMetaStore source = InMemoryMetaStore.create();
                InMemoryMetaStore target = InMemoryMetaStore.create()) {
            Map<MetaKey, MetaValue> sourceModel = new HashMap<>();
            int keys = random.nextInt(300);
            for (int i = 0; i < keys; i++) {
                MetaKey key = MetaKey.of(FAMILIES.get(random.nextInt(FAMILIES.size())) + "/k" + random.nextInt(1000));
                MetaValue value = randomValue(random);
                if (sourceModel.putIfAbsent(key, value) == null) {
                    source.create(key, value);
                }
            }
            if (everyFamily) {
                prefixes.clear();
                sourceModel.keySet().stream()
                        .map(MetaKey::family)
                        .distinct()
                        .sorted()
                        .forEach(family -> prefixes.add(KeyPrefix.family(family)));
                context += " (every family: " + prefixes + ")";
            }
            boolean intoNonEmpty = random.nextInt(3) == 0;
            Map<MetaKey, MetaValue> preexisting = new HashMap<>();
            if (intoNonEmpty) {
                for (MetaKey key : sourceModel.keySet()) {
                    int draw = random.nextInt(10);
                    MetaValue value = draw == 0 ? sourceModel.get(key) : draw == 1 ? MetaValue.utf8("other") : null;
                    if (value != null) {
                        preexisting.put(key, value);
                        target.create(key, value);
                    }
                }
            }
            int pageSize = 1 + random.nextInt(random.nextBoolean() ? 20 : 400);
            CopyReport report = null;
            for (int attempt = 0; attempt < 200 && report == null; attempt++) {
                Fault fault = Fault.values()[random.nextInt(Fault.values().length)];
                int failAt = 1 + random.nextInt(8);
                int killAfterPages = random.nextInt(4) == 0 ? 1 + random.nextInt(5) : Integer.MAX_VALUE;
                int[] pages = {0};
                try {
                    report = StoreCopy.from(source)
                            .to(new FaultyTarget(target, fault, failAt))
                            .prefixes(everyFamily ? List.of() : prefixes)
                            .pageSize(pageSize)
                            .intoNonEmpty(intoNonEmpty)
                            .listener(progress -> {
                                if (++pages[0] == killAfterPages) {
                                    throw new IllegalStateException("killed");
                                }
                            })
                            .build()
                            .run();
                } catch (IllegalStateException | StoreUnavailableException killed) {
                    // a kill: the next attempt resumes
                }
                checkModel(context + ", attempt " + attempt, target, prefixes, sourceModel, preexisting);
            }
            assertThat(report).as(context + ": finished").isNotNull();
            long inSource = sourceModel.keySet().stream()
                    .filter(k -> prefixes.stream().anyMatch(p -> p.contains(k)))
                    .count();
            long equal = preexisting.entrySet().stream()
                    .filter(e -> e.getValue().equals(sourceModel.get(e.getKey())))
                    .filter(e -> prefixes.stream().anyMatch(p -> p.contains(e.getKey())))
                    .count();
            long differing = preexisting.entrySet().stream()
                    .filter(e -> !e.getValue().equals(sourceModel.get(e.getKey())))
                    .filter(e -> prefixes.stream().anyMatch(p -> p.contains(e.getKey())))
                    .count();
            assertThat(report.copied()).as(context).isEqualTo(inSource - equal - differing);
            assertThat(report.alreadyEqual()).as(context).isEqualTo(equal);
            assertThat(report.differing()).as(context).isEqualTo(differing);
            assertThat(report.verification().equal()).as(context).isEqualTo(differing == 0);
            assertThat(report.verification().valueDiffers()).as(context).isEqualTo(differing);
            assertThat(target.get(RECORD)).as(context).isEmpty();
        }
    }

    /** Pre-existing keys unchanged, every other key holds its source bytes, the record counts each key once. */
    private static void checkModel(
            String context,
            MetaStore target,
            List<KeyPrefix> prefixes,
            Map<MetaKey, MetaValue> sourceModel,
            Map<MetaKey, MetaValue> preexisting) {
        long written = 0;
        for (KeyPrefix prefix : prefixes) {
            for (Optional<PageRequest> request = Optional.of(PageRequest.first(prefix, 1000)); request.isPresent(); ) {
                Page page = target.page(request.get());
                for (Entry entry : page.entries()) {
                    if (preexisting.containsKey(entry.key())) {
                        assertThat(entry.value())
                                .as(context + ": " + entry.key())
                                .isEqualTo(preexisting.get(entry.key()));
                    } else {
                        assertThat(entry.value())
                                .as(context + ": " + entry.key())
                                .isEqualTo(sourceModel.get(entry.key()));
                        written++;
                    }
                }
                request = request.get().next(page);
            }
        }
        Optional<MetaValue> record = target.get(RECORD);
        if (record.isPresent()) {
            String json = record.get().asUtf8();
            long copied = Long.parseLong(json.replaceAll(".*\"copied\":(\\d+).*", "$1"));
            assertThat(copied).as(context + ": copied in the record").isEqualTo(written);
        }
    }

    @Test
    void faultsAnywhere_andASourceChangedBetweenRuns_areReportedExactly() {
        for (int seed = 1; seed <= SEEDS; seed++) {
            exploreChanging(seed);
        }
    }

    private void exploreChanging(long seed) {
        Random random = new Random(-seed);
        String context = "changing seed " + seed;
        List<KeyPrefix> prefixes = new ArrayList<>();
        for (String family : FAMILIES) {
            if (prefixes.isEmpty() || random.nextBoolean()) {
                prefixes.add(KeyPrefix.family(family));
            }
        }
        boolean everyFamily = random.nextInt(3) == 0;
        try (InMemoryMetaStore source = InMemoryMetaStore.create();
                InMemoryMetaStore target = InMemoryMetaStore.create()) {
            Map<MetaKey, Set<MetaValue>> history = new HashMap<>();
            int keys = 1 + random.nextInt(200);
            for (int i = 0; i < keys; i++) {
                MetaKey key = MetaKey.of(FAMILIES.get(random.nextInt(FAMILIES.size())) + "/k" + random.nextInt(1000));
                MetaValue value = randomValue(random);
                if (source.create(key, value).isApplied()) {
                    history.computeIfAbsent(key, k -> new HashSet<>()).add(value);
                }
            }
            boolean intoNonEmpty = random.nextInt(3) == 0;
            Map<MetaKey, MetaValue> preexisting = new HashMap<>();
            if (intoNonEmpty) {
                for (MetaKey key : List.copyOf(history.keySet())) {
                    int draw = random.nextInt(10);
                    MetaValue value =
                            draw == 0 ? source.get(key).orElseThrow() : draw == 1 ? MetaValue.utf8("other") : null;
                    if (value != null) {
                        preexisting.put(key, value);
                        target.create(key, value);
                    }
                }
            }
            int pageSize = 1 + random.nextInt(random.nextBoolean() ? 10 : 100);
            int changes = 0;
            RuntimeException last = null;
            CopyReport report = null;
            for (int attempt = 0; attempt < 300 && report == null; attempt++) {
                if (attempt > 0 && random.nextInt(3) == 0) {
                    changes += changeSource(random, source, history, everyFamily);
                }
                int killAfterPages = random.nextInt(4) == 0 ? 1 + random.nextInt(5) : Integer.MAX_VALUE;
                int[] pages = {0};
                try {
                    report = StoreCopy.from(
                                    new FailingReads(source, random.nextInt(3) == 0 ? 1 + random.nextInt(30) : 0))
                            .to(new FaultyCalls(
                                    target,
                                    Fault.values()[random.nextInt(Fault.values().length)],
                                    random.nextBoolean() ? 1 + random.nextInt(40) : 0))
                            .prefixes(everyFamily ? List.of() : prefixes)
                            .pageSize(pageSize)
                            .intoNonEmpty(intoNonEmpty)
                            .listener(progress -> {
                                if (++pages[0] == killAfterPages) {
                                    throw new IllegalStateException("killed");
                                }
                            })
                            .build()
                            .run();
                } catch (IllegalStateException | StoreUnavailableException | OutcomeUnknownException killed) {
                    last = killed; // a kill or a fault: the next attempt resumes
                }
                checkWritten(context + ", attempt " + attempt, target, history, preexisting);
            }
            assertThat(report)
                    .as(context + ": finished; the last attempt ended with %s", last)
                    .isNotNull();
            assertThat(target.get(RECORD)).as(context).isEmpty();
            List<KeyPrefix> compared = everyFamily ? everyFamilyOf(source, target) : prefixes;
            checkExact(context + " after " + changes + " changes", report.verification(), source, target, compared);
        }
    }

    /** Updates, deletes or creates a few source keys; a copy of every family keeps its families. */
    private static int changeSource(
            Random random, InMemoryMetaStore source, Map<MetaKey, Set<MetaValue>> history, boolean everyFamily) {
        int changes = 1 + random.nextInt(5);
        for (int i = 0; i < changes; i++) {
            MetaKey key = MetaKey.of(FAMILIES.get(random.nextInt(FAMILIES.size())) + "/k" + random.nextInt(1000));
            Optional<MetaValue> held = source.get(key);
            MetaValue value = randomValue(random);
            if (held.isEmpty()) {
                if (everyFamily
                        && source.page(KeyPrefix.family(key.family()), 1)
                                .entries()
                                .isEmpty()) {
                    continue; // a new family would change the plan of a copy of every family
                }
                source.create(key, value);
            } else if (random.nextBoolean()) {
                source.update(key, held.get(), value);
            } else {
                if (everyFamily
                        && source.page(KeyPrefix.family(key.family()), 2)
                                        .entries()
                                        .size()
                                < 2) {
                    continue; // so would a family's last key deleted
                }
                source.delete(key, held.get());
                continue;
            }
            history.computeIfAbsent(key, k -> new HashSet<>()).add(value);
        }
        return changes;
    }

    /** Pre-existing keys unchanged, every other key holds bytes its source key once held, the record counts them. */
    private static void checkWritten(
            String context,
            InMemoryMetaStore target,
            Map<MetaKey, Set<MetaValue>> history,
            Map<MetaKey, MetaValue> preexisting) {
        long written = 0;
        for (String family : target.families()) {
            if (family.equals(RECORD.family())) {
                continue;
            }
            for (Map.Entry<MetaKey, MetaValue> entry :
                    entries(target, KeyPrefix.family(family)).entrySet()) {
                if (preexisting.containsKey(entry.getKey())) {
                    assertThat(entry.getValue())
                            .as(context + ": " + entry.getKey())
                            .isEqualTo(preexisting.get(entry.getKey()));
                } else {
                    assertThat(history.getOrDefault(entry.getKey(), Set.of()))
                            .as(context + ": " + entry.getKey())
                            .contains(entry.getValue());
                    written++;
                }
            }
        }
        Optional<MetaValue> record = target.get(RECORD);
        if (record.isPresent()) {
            long copied = Long.parseLong(record.get().asUtf8().replaceAll(".*\"copied\":(\\d+).*", "$1"));
            assertThat(copied).as(context + ": copied in the record").isEqualTo(written);
        }
    }

    /** The verification counts exactly what the two stores hold under the compared prefixes. */
    private static void checkExact(
            String context, Verification verification, MetaStore source, MetaStore target, List<KeyPrefix> compared) {
        Map<MetaKey, MetaValue> inSource = new HashMap<>();
        Map<MetaKey, MetaValue> inTarget = new HashMap<>();
        for (KeyPrefix prefix : compared) {
            inSource.putAll(entries(source, prefix));
            inTarget.putAll(entries(target, prefix));
        }
        long missing =
                inSource.keySet().stream().filter(k -> !inTarget.containsKey(k)).count();
        long extra =
                inTarget.keySet().stream().filter(k -> !inSource.containsKey(k)).count();
        long differs = inSource.entrySet().stream()
                .filter(e -> inTarget.containsKey(e.getKey())
                        && !inTarget.get(e.getKey()).equals(e.getValue()))
                .count();
        String what = context + ": " + verification;
        assertThat(verification.sourceStable()).as(what).isTrue();
        assertThat(verification.sourceKeys()).as(what).isEqualTo(inSource.size());
        assertThat(verification.targetKeys()).as(what).isEqualTo(inTarget.size());
        assertThat(verification.missingInTarget()).as(what).isEqualTo(missing);
        assertThat(verification.extraInTarget()).as(what).isEqualTo(extra);
        assertThat(verification.valueDiffers()).as(what).isEqualTo(differs);
        assertThat(verification.equal()).as(what).isEqualTo(missing + extra + differs == 0);
        assertThat(verification.sourceDigest().equals(verification.targetDigest()))
                .as(what)
                .isEqualTo(inSource.equals(inTarget));
    }

    /** Every family either store holds, the copy's own left out. */
    private static List<KeyPrefix> everyFamilyOf(InMemoryMetaStore source, InMemoryMetaStore target) {
        TreeSet<String> families = new TreeSet<>(source.families());
        families.addAll(target.families());
        families.remove(RECORD.family());
        return families.stream().map(KeyPrefix::family).toList();
    }

    private static Map<MetaKey, MetaValue> entries(MetaStore store, KeyPrefix prefix) {
        Map<MetaKey, MetaValue> entries = new HashMap<>();
        for (Optional<PageRequest> request = Optional.of(PageRequest.first(prefix, 1000)); request.isPresent(); ) {
            Page page = store.page(request.get());
            page.entries().forEach(entry -> entries.put(entry.key(), entry.value()));
            request = request.get().next(page);
        }
        return entries;
    }

    private static MetaValue randomValue(Random random) {
        byte[] bytes = new byte[random.nextInt(200)];
        random.nextBytes(bytes);
        return MetaValue.of(bytes);
    }

    private enum Fault {
        NOT_SENT,
        ANSWER_LOST,
        DIED_AFTER_COMMIT
    }

    /**
     * Fails the n-th call of one attempt (0: none), whatever it is: a read is unavailable; a write is not
     * sent, or applies and loses its answer, or (a transaction) applies and the process dies. The
     * record's deletion is not killed after it applied: the copy is then done, its report lost
     * with the process, and a rerun finds a target without a record (run --verify-only).
     */
    private static final class FaultyCalls extends ForwardingMetaStore {
        private final Fault fault;
        private final int failAt;
        private int calls;

        FaultyCalls(MetaStore delegate, Fault fault, int failAt) {
            super(delegate);
            this.fault = fault;
            this.failAt = failAt;
        }

        private boolean failNow() {
            return ++calls == failAt;
        }

        @Override
        public Optional<MetaValue> get(MetaKey key) {
            if (failNow()) {
                throw new StoreUnavailableException("injected: get unavailable");
            }
            return super.get(key);
        }

        @Override
        public Map<MetaKey, MetaValue> getAll(java.util.Collection<MetaKey> keys) {
            if (failNow()) {
                throw new StoreUnavailableException("injected: getAll unavailable");
            }
            return super.getAll(keys);
        }

        @Override
        public Page page(PageRequest request) {
            if (failNow()) {
                throw new StoreUnavailableException("injected: page unavailable");
            }
            return super.page(request);
        }

        @Override
        public WriteResult apply(Mutation mutation) {
            if (!failNow()) {
                return super.apply(mutation);
            }
            if (fault == Fault.NOT_SENT) {
                throw new StoreUnavailableException("injected: not sent");
            }
            super.apply(mutation);
            throw new OutcomeUnknownException("injected: answer lost", null);
        }

        @Override
        public TransactionResult transact(Transaction transaction) {
            if (!failNow()) {
                return super.transact(transaction);
            }
            switch (fault) {
                case NOT_SENT -> throw new StoreUnavailableException("injected: not sent");
                case ANSWER_LOST -> {
                    super.transact(transaction);
                    throw new OutcomeUnknownException("injected: answer lost", null);
                }
                default -> {
                    super.transact(transaction);
                    throw new IllegalStateException("injected: the process died after the commit");
                }
            }
        }

        @Override
        public void close() {}
    }

    /** The n-th page read of the source is unavailable (0: none): during the copy or its verification. */
    private static final class FailingReads extends ForwardingMetaStore {
        private final int failAt;
        private int pages;

        FailingReads(MetaStore delegate, int failAt) {
            super(delegate);
            this.failAt = failAt;
        }

        @Override
        public Page page(PageRequest request) {
            if (++pages == failAt) {
                throw new StoreUnavailableException("injected: the source is unavailable");
            }
            return super.page(request);
        }

        @Override
        public void close() {}
    }

    /** Fails the n-th transaction of one attempt in the chosen way. */
    private static final class FaultyTarget extends ForwardingMetaStore {
        private final Fault fault;
        private final int failAt;
        private int transactions;

        FaultyTarget(MetaStore delegate, Fault fault, int failAt) {
            super(delegate);
            this.fault = fault;
            this.failAt = failAt;
        }

        @Override
        public TransactionResult transact(Transaction transaction) {
            if (++transactions != failAt) {
                return super.transact(transaction);
            }
            switch (fault) {
                case NOT_SENT -> throw new StoreUnavailableException("injected: not sent");
                case ANSWER_LOST -> {
                    super.transact(transaction);
                    throw new OutcomeUnknownException("injected: answer lost", null);
                }
                default -> {
                    super.transact(transaction);
                    throw new IllegalStateException("injected: the process died after the commit");
                }
            }
        }

        @Override
        public void close() {}
    }
}
