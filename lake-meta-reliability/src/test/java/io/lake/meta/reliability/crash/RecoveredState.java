package io.lake.meta.reliability.crash;

import io.lake.meta.Entry;
import io.lake.meta.KeyPrefix;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.Page;
import io.lake.meta.PageRequest;
import io.lake.meta.reliability.MixedWorkload;
import io.lake.meta.rocks.RocksDbMetaStore;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What a store holds after a crash, read twice: key by key, and page by page through every
 * family the workload writes (small pages, following the tokens). Both readings must agree, pages
 * must come in key order without repeats, and no key may exist that the workload never names.
 */
record RecoveredState(Map<MetaKey, MetaValue> values, List<String> problems) {

    /** Opens the store in {@code dir}, reads it, closes it. */
    static RecoveredState read(Path dir, Collection<MetaKey> known) {
        try (MetaStore store = RocksDbMetaStore.builder().directory(dir).build()) {
            return read(store, known);
        }
    }

    static RecoveredState read(MetaStore store, Collection<MetaKey> known) {
        List<String> problems = new ArrayList<>();
        Map<MetaKey, MetaValue> byGet = new LinkedHashMap<>();
        for (MetaKey key : known) {
            store.get(key).ifPresent(v -> byGet.put(key, v));
        }
        Map<MetaKey, MetaValue> byPage = new TreeMap<>();
        for (KeyPrefix prefix : List.of(MixedWorkload.DATA, KeyPrefix.of("lease/"))) {
            Optional<PageRequest> request = Optional.of(PageRequest.first(prefix, 2));
            MetaKey last = null;
            while (request.isPresent()) {
                Page page = store.page(request.get());
                for (Entry e : page.entries()) {
                    if (last != null && e.key().compareTo(last) <= 0) {
                        problems.add("page of " + prefix + " returned " + e.key() + " after " + last);
                    }
                    if (!prefix.contains(e.key())) {
                        problems.add("page of " + prefix + " returned " + e.key() + " outside it");
                    }
                    last = e.key();
                    byPage.put(e.key(), e.value());
                }
                request = request.get().next(page);
            }
        }
        for (MetaKey key : byPage.keySet()) {
            if (!known.contains(key)) {
                problems.add("a key no writer names: " + key + " = " + byPage.get(key));
            }
        }
        if (!new TreeMap<>(byGet).equals(byPage)) {
            problems.add("pages disagree with point reads: pages " + byPage + ", reads " + byGet);
        }
        return new RecoveredState(Map.copyOf(byGet), problems);
    }
}
