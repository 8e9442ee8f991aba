package io.lake.meta.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import io.lake.meta.MetaStore;
import io.lake.meta.Ticker;
import io.lake.meta.spi.RaceHooks;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.ref.WeakReference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayNameGeneration;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What every suite of the testkit shares: the {@link BackendFactory} it runs on (named by
 * {@link Backend @Backend}, or held by a {@code @ParameterizedClass} field), stores opened through
 * it with a {@link StoreContext}, the directories those stores were given deleted after each test,
 * and test names that read {@code Backend > group > behaviour} ({@link ContractDisplayNames}).
 * Backends do not extend this class: they extend a suite ({@link MetaStoreSuite},
 * {@code lease.LeaseFencingSuite}, ...).
 *
 * @since 0.1.0
 */
@ExtendWith(BackendExtension.class)
@DisplayNameGeneration(ContractDisplayNames.class)
public abstract class BackendSuite {

    private BackendFactory backend;
    private Capabilities capabilities;
    private SuiteSettings settings;
    private @Nullable Path directories;
    /**
     * The stores each factory returned, held weakly and compared by identity: a factory that returns
     * a store again (cached, or kept in a field) fails the test at once, not with hundreds of
     * misleading failures on a closed or shared store.
     */
    private static final Map<BackendFactory, List<WeakReference<MetaStore>>> RETURNED = new WeakHashMap<>();

    /** For the suites of the testkit. */
    protected BackendSuite() {}

    /** Takes the backend of this test; runs before the suites' own set-up. */
    @BeforeEach
    final void useBackend(BackendFactory backend) {
        this.backend = backend;
        this.capabilities = backend.capabilities();
        assertThat(capabilities)
                .as("%s.capabilities() must return the capabilities", backend)
                .isNotNull();
        this.settings = backend.settings();
        assertThat(settings)
                .as("%s.settings() must return the settings", backend)
                .isNotNull();
    }

    /** The backend under test. */
    protected final BackendFactory backend() {
        if (backend == null) {
            throw new IllegalStateException("the backend is set before each test of a suite");
        }
        return backend;
    }

    /** What the backend declared it can do. */
    protected final Capabilities capabilities() {
        backend();
        return capabilities;
    }

    /** How long the suite waits on the backend. */
    protected final SuiteSettings settings() {
        backend();
        return settings;
    }

    /**
     * Opens a new, empty store of the backend, handing it {@code hooks} and {@code clock} (and
     * {@link Ticker#system()}); the caller closes it. Fails at once, saying so, when the factory
     * returns a store it already returned (to this test or an earlier one).
     */
    protected final MetaStore openStore(RaceHooks hooks, Clock clock) throws Exception {
        StoreContext context = new SuiteContext(hooks, clock);
        MetaStore store = backend().open(context);
        assertThat(store).as("%s.open(context) must return a store", backend).isNotNull();
        if (!firstReturnOf(backend(), store)) {
            throw new AssertionError(backend + ".open(context) returned a store it had already returned (" + store
                    + "): every call must return a new, empty store, which the test closes");
        }
        return store;
    }

    /** Deletes the directories this test's stores were given; runs after the suites closed their stores. */
    @AfterEach
    final void deleteStoreDirectories() throws IOException {
        Path root = directories;
        directories = null;
        if (root == null) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> {
                try {
                    Files.delete(path);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (UncheckedIOException e) {
            throw new IOException(
                    "could not delete " + root + ", the directories the test's stores were given"
                            + " (a store still open, or a file held by the backend?)",
                    e.getCause());
        }
    }

    private static boolean firstReturnOf(BackendFactory backend, MetaStore store) {
        synchronized (RETURNED) {
            List<WeakReference<MetaStore>> returned = RETURNED.computeIfAbsent(backend, b -> new ArrayList<>());
            returned.removeIf(ref -> ref.get() == null);
            if (returned.stream().anyMatch(ref -> ref.get() == store)) {
                return false;
            }
            returned.add(new WeakReference<>(store));
            return true;
        }
    }

    private synchronized Path newDirectory() throws IOException {
        if (directories == null) {
            directories = Files.createTempDirectory("lake-meta-suite-");
        }
        return Files.createTempDirectory(directories, "store-");
    }

    /** The context of one store; its directories live under the test's root. */
    private final class SuiteContext implements StoreContext {
        private final RaceHooks hooks;
        private final Clock clock;

        SuiteContext(RaceHooks hooks, Clock clock) {
            this.hooks = hooks;
            this.clock = clock;
        }

        @Override
        public RaceHooks raceHooks() {
            return hooks;
        }

        @Override
        public Clock clock() {
            return clock;
        }

        @Override
        public Ticker ticker() {
            return Ticker.system();
        }

        @Override
        public Path newDirectory() throws IOException {
            return BackendSuite.this.newDirectory();
        }

        @Override
        public String toString() {
            return "StoreContext[" + (hooks == RaceHooks.NONE ? "no race hooks" : "race hooks " + hooks) + ", " + clock
                    + "]";
        }
    }
}
