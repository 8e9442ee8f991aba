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
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayNameGeneration;

/**
 * The plumbing every part of the contract suite shares: the store under test, opened fresh for
 * each test with {@link PausePoints} as its race hooks, and helpers that read the store the way a
 * careful caller would. Backends do not extend this class directly: extend {@link MetaStoreContract}.
 */
@DisplayNameGeneration(ContractDisplayNames.class)
public abstract class ContractSupport {

    /** The most pages a full iteration may take before the suite calls it an endless token loop. */
    static final int MAX_PAGES_PER_ITERATION = 100_000;

    /**
     * The system property that sets {@link #raceHookTimeout()} for every contract test of a run:
     * an ISO-8601 duration ({@code PT5S}) or a number of seconds ({@code 5}).
     */
    public static final String RACE_HOOK_TIMEOUT_PROPERTY = "lake.meta.testkit.raceHookTimeout";

    /** The store under test; fresh and empty for each test. */
    protected MetaStore store;

    /** The race hooks {@link #store} was opened with; unarmed points let every thread through. */
    protected PausePoints pausePoints;

    /**
     * Opens a fresh, empty store of the backend under test. The suite calls it once before each
     * test and again for every generated sequence of the model-equivalence properties, so every
     * call must return a new, empty store (for an embedded backend: in a new directory). The suite
     * closes every store it opened.
     *
     * @param hooks the hooks the store must call at {@link RaceHooks#COMMIT_CHECKED} inside every
     *     commit: after the commit's preconditions were checked, before its write becomes visible
     */
    protected abstract MetaStore openStore(RaceHooks hooks) throws Exception;

    /**
     * What the backend can do, of what the suite would otherwise expect. Every capability by
     * default; a backend that lacks one returns a set without it, and the suite then expects
     * what the capability's documentation says instead.
     *
     * @return the backend's capabilities; never null
     */
    protected Set<ContractCapability> capabilities() {
        return EnumSet.allOf(ContractCapability.class);
    }

    /**
     * How long a race test waits for a commit to reach {@link RaceHooks#COMMIT_CHECKED}, for a
     * competing writer to park, or for a racer to finish, before it fails: a safety net, never an
     * ordering tool. Default: the {@value #RACE_HOOK_TIMEOUT_PROPERTY} system property, else
     * {@link PausePoints#DEFAULT_SAFETY_TIMEOUT} (30 s). A backend whose commits are fast may
     * shorten it to fail sooner when a hook is missing.
     *
     * @return a positive duration
     */
    protected Duration raceHookTimeout() {
        String configured = System.getProperty(RACE_HOOK_TIMEOUT_PROPERTY);
        if (configured == null || configured.isBlank()) {
            return PausePoints.DEFAULT_SAFETY_TIMEOUT;
        }
        String text = configured.trim();
        try {
            return text.chars().allMatch(Character::isDigit) ? Duration.ofSeconds(Long.parseLong(text)) : Duration.parse(text);
        } catch (DateTimeParseException | NumberFormatException e) {
            throw new IllegalArgumentException(RACE_HOOK_TIMEOUT_PROPERTY + " must be an ISO-8601 duration (PT5S) or a"
                    + " number of seconds, got '" + configured + "'", e);
        }
    }

    /** Whether the backend declared {@code capability}, checking the declaration itself. */
    final boolean declares(ContractCapability capability) {
        Set<ContractCapability> declared = capabilities();
        assertThat(declared).as("capabilities() must not return null").isNotNull();
        return declared.contains(capability);
    }

    /**
     * Opens a store with {@link #openStore(RaceHooks)} and holds it to the declared
     * {@linkplain #capabilities() capabilities}; null when {@code openStore} returned null.
     */
    final @Nullable MetaStore openStoreAsDeclared(RaceHooks hooks) throws Exception {
        MetaStore opened = openStore(hooks);
        return opened == null ? null
                : new DeclaredCapabilitiesStore(opened, declares(ContractCapability.CONFLICT_REPORTS_CURRENT_VALUE));
    }

    @BeforeEach
    final void openStoreUnderTest() throws Exception {
        pausePoints = new PausePoints(raceHookTimeout());
        MetaStore opened = openStoreAsDeclared(pausePoints);
        assertThat(opened).as("openStore(hooks) must return a store").isNotNull();
        store = opened;
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
                assertThat(seen.add(entry.key())).as("key %s returned twice while iterating %s", entry.key(), prefix)
                        .isTrue();
                all.add(entry);
            }
            request = request.get().next(page);
        }
        return all;
    }

    /** What every single page must satisfy, whatever the backend. */
    static void checkPage(KeyPrefix prefix, int limit, Page page) {
        assertThat(page.entries()).as("entries of a page of %s with limit %d", prefix, limit).hasSizeLessThanOrEqualTo(limit);
        assertThat(page.cost().itemsEvaluated())
                .as("items evaluated for a page of %s with limit %d (limit plus at most one look-ahead)", prefix, limit)
                .isLessThanOrEqualTo(limit + 1L);
        for (Entry entry : page.entries()) {
            assertThat(prefix.contains(entry.key())).as("key %s returned by a page of %s", entry.key(), prefix).isTrue();
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
