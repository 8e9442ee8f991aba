package io.lake.meta.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.lake.meta.Entry;
import io.lake.meta.KeyPrefix;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.Page;
import io.lake.meta.PageRequest;
import io.lake.meta.spi.RaceHooks;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * The plumbing every part of the contract suite shares: the store under test, opened fresh for
 * each test with {@link PausePoints} as its race hooks and held to the backend's declared
 * capabilities, and helpers that read the store the way a careful caller would. Backends do not
 * extend this class: they extend {@link MetaStoreSuite}.
 */
abstract class ContractSupport extends BackendSuite {

    /** The most pages a full iteration may take before the suite calls it an endless token loop. */
    static final int MAX_PAGES_PER_ITERATION = 100_000;

    /** The store under test; fresh and empty for each test. */
    protected MetaStore store;

    /** The race hooks {@link #store} was opened with; unarmed points let every thread through. */
    protected PausePoints pausePoints;

    /** How long a race test waits for a commit, a competitor or a racer: {@link SuiteSettings#raceHookTimeout()}. */
    final Duration raceHookTimeout() {
        return settings().raceHookTimeout();
    }

    /** Whether the backend declared {@code capability}. */
    final boolean declares(Capability capability) {
        return capabilities().has(capability);
    }

    /**
     * Opens a store of the backend with {@code hooks} and holds it to the declared
     * {@linkplain #capabilities() capabilities}.
     */
    final MetaStore openStoreAsDeclared(RaceHooks hooks) throws Exception {
        MetaStore opened = openStore(hooks, Clock.systemUTC());
        return new DeclaredCapabilitiesStore(opened, declares(Capability.CONFLICT_REPORTS_CURRENT_VALUE));
    }

    @BeforeEach
    final void openStoreUnderTest() throws Exception {
        pausePoints = new PausePoints(raceHookTimeout());
        store = openStoreAsDeclared(pausePoints);
    }

    @AfterEach
    final void closeStoreUnderTest() {
        if (store != null) {
            store.close();
        }
    }

    /** The key {@code text} spells. */
    protected static MetaKey key(String text) {
        return MetaKey.of(text);
    }

    /** The UTF-8 bytes of {@code text}. */
    protected static MetaValue value(String text) {
        return MetaValue.utf8(text);
    }

    /** The prefix {@code text} spells. */
    protected static KeyPrefix prefix(String text) {
        return KeyPrefix.of(text);
    }

    /**
     * Reads every page of {@code prefix} on {@code store}, looping on the continuation token (never
     * on the number of entries), and checks what every page must satisfy: at most {@code limit}
     * entries, a cost of at most {@code limit + 1} items, only keys under the prefix, no key twice.
     */
    static List<Entry> readAll(MetaStore store, KeyPrefix prefix, int limit) {
        List<Entry> all = new ArrayList<>();
        Set<MetaKey> seen = new HashSet<>();
        Optional<PageRequest> request = Optional.of(PageRequest.first(prefix, limit));
        int pages = 0;
        while (request.isPresent()) {
            if (++pages > MAX_PAGES_PER_ITERATION) {
                fail("iterating " + prefix + " with limit " + limit + " did not end after " + MAX_PAGES_PER_ITERATION
                        + " pages: the continuation tokens loop");
            }
            Page page = store.page(request.get());
            checkPage(prefix, limit, page);
            for (Entry entry : page.entries()) {
                assertThat(seen.add(entry.key()))
                        .as("key %s returned twice while iterating %s", entry.key(), prefix)
                        .isTrue();
                all.add(entry);
            }
            request = request.get().next(page);
        }
        return all;
    }

    /** What every single page must satisfy, whatever the backend. */
    static void checkPage(KeyPrefix prefix, int limit, Page page) {
        assertThat(page.entries())
                .as("entries of a page of %s with limit %d", prefix, limit)
                .hasSizeLessThanOrEqualTo(limit);
        assertThat(page.cost().itemsEvaluated())
                .as("items evaluated for a page of %s with limit %d (limit plus at most one look-ahead)", prefix, limit)
                .isLessThanOrEqualTo(limit + 1L);
        for (Entry entry : page.entries()) {
            assertThat(prefix.contains(entry.key()))
                    .as("key %s returned by a page of %s", entry.key(), prefix)
                    .isTrue();
        }
    }

    /** Every key under {@code prefix} with its value as UTF-8 text, sorted by key bytes. */
    protected Map<String, String> contents(String prefix) {
        return contents(store, prefix);
    }

    static Map<String, String> contents(MetaStore store, String prefix) {
        Map<String, String> contents = new LinkedHashMap<>();
        readAll(store, KeyPrefix.of(prefix), 7).stream()
                .sorted((a, b) -> a.key().compareTo(b.key()))
                .forEach(e -> contents.put(e.key().toString(), e.value().asUtf8()));
        return contents;
    }

    /** Sorted keys of {@code entries}, as text. */
    protected static List<String> keysOf(List<Entry> entries) {
        return entries.stream().map(Entry::key).sorted().map(MetaKey::toString).toList();
    }
}
