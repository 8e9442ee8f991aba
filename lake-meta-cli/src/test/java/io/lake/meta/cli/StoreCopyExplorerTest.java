package io.lake.meta.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.lake.meta.Entry;
import io.lake.meta.KeyPrefix;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.Page;
import io.lake.meta.PageRequest;
import io.lake.meta.StoreUnavailableException;
import io.lake.meta.copy.CopyReport;
import io.lake.meta.copy.StoreCopy;
import io.lake.meta.testkit.FaultyStore;
import io.lake.meta.testkit.InMemoryMetaStore;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The copy as a state machine under seeded random faults: random stores, prefixes, page sizes and
 * pre-existing target keys; each attempt is killed at a random transaction (before it is sent,
 * after it applied with the answer lost, after it applied with the process dying) or after a random
 * page, and run again until done. After every attempt the model is checked: no pre-existing key
 * changed, every other target key holds its source bytes, and the resume record counts each key
 * once. 60 seeds in the default build; {@code -Dlake.meta.copy.explorer.seeds=N} for more.
 */
class StoreCopyExplorerTest {

    private static final int SEEDS = Integer.getInteger("lake.meta.copy.explorer.seeds", 60);
    private static final List<String> FAMILIES = List.of("tbl", "lease", "ops", "seq");
    private static final MetaKey RECORD = MetaKey.of("lake-meta-copy/resume");
    /** How an attempt's chosen transaction fails: never sent, its answer lost, or the process died after the commit. */
    private static final List<FaultyStore.Fault> FAULTS = List.of(FaultyStore.Fault.UNAVAILABLE, FaultyStore.Fault.ANSWER_LOST,
            FaultyStore.Fault.thrownAfterSending(new IllegalStateException("injected: the process died after the commit")));

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
        try (InMemoryMetaStore source = InMemoryMetaStore.create(); InMemoryMetaStore target = InMemoryMetaStore.create()) {
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
                sourceModel.keySet().stream().map(MetaKey::family).distinct().sorted()
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
                FaultyStore.Fault fault = FAULTS.get(random.nextInt(FAULTS.size()));
                int failAt = 1 + random.nextInt(8);
                int killAfterPages = random.nextInt(4) == 0 ? 1 + random.nextInt(5) : Integer.MAX_VALUE;
                int[] pages = {0};
                try {
                    report = StoreCopy.from(source).to(FaultyStore.over(target).failNth(FaultyStore.Call.TRANSACT, failAt, fault))
                            .prefixes(everyFamily ? List.of() : prefixes)
                            .pageSize(pageSize).intoNonEmpty(intoNonEmpty).listener(progress -> {
                                if (++pages[0] == killAfterPages) {
                                    throw new IllegalStateException("killed");
                                }
                            }).build().run();
                } catch (IllegalStateException | StoreUnavailableException killed) {
                    // a kill: the next attempt resumes
                }
                checkModel(context + ", attempt " + attempt, target, prefixes, sourceModel, preexisting);
            }
            assertThat(report).as(context + ": finished").isNotNull();
            long inSource = sourceModel.keySet().stream().filter(k -> prefixes.stream().anyMatch(p -> p.contains(k)))
                    .count();
            long equal = preexisting.entrySet().stream().filter(e -> e.getValue().equals(sourceModel.get(e.getKey())))
                    .filter(e -> prefixes.stream().anyMatch(p -> p.contains(e.getKey()))).count();
            long differing = preexisting.entrySet().stream().filter(e -> !e.getValue().equals(sourceModel.get(e.getKey())))
                    .filter(e -> prefixes.stream().anyMatch(p -> p.contains(e.getKey()))).count();
            assertThat(report.copied()).as(context).isEqualTo(inSource - equal - differing);
            assertThat(report.alreadyEqual()).as(context).isEqualTo(equal);
            assertThat(report.differing()).as(context).isEqualTo(differing);
            assertThat(report.verification().equal()).as(context).isEqualTo(differing == 0);
            assertThat(report.verification().valueDiffers()).as(context).isEqualTo(differing);
            assertThat(target.get(RECORD)).as(context).isEmpty();
        }
    }

    /** Pre-existing keys unchanged, every other key holds its source bytes, the record counts each key once. */
    private static void checkModel(String context, MetaStore target, List<KeyPrefix> prefixes,
            Map<MetaKey, MetaValue> sourceModel, Map<MetaKey, MetaValue> preexisting) {
        long written = 0;
        for (KeyPrefix prefix : prefixes) {
            for (Optional<PageRequest> request = Optional.of(PageRequest.first(prefix, 1000)); request.isPresent(); ) {
                Page page = target.page(request.get());
                for (Entry entry : page.entries()) {
                    if (preexisting.containsKey(entry.key())) {
                        assertThat(entry.value()).as(context + ": " + entry.key()).isEqualTo(preexisting.get(entry.key()));
                    } else {
                        assertThat(entry.value()).as(context + ": " + entry.key()).isEqualTo(sourceModel.get(entry.key()));
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

    private static MetaValue randomValue(Random random) {
        byte[] bytes = new byte[random.nextInt(200)];
        random.nextBytes(bytes);
        return MetaValue.of(bytes);
    }
}
