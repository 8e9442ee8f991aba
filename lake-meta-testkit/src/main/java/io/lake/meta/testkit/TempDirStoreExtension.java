package io.lake.meta.testkit;

import io.lake.meta.MetaStore;
import io.lake.meta.spi.RaceHooks;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Hands each test a fresh embedded {@link MetaStore} in a new temporary directory, then closes
 * the store and deletes the directory after the test.
 *
 * <pre>{@code
 * @RegisterExtension
 * static TempDirStoreExtension stores = TempDirStoreExtension.of(dir -> RocksDbMetaStore.builder().directory(dir).build());
 *
 * @Test
 * void registersATable(MetaStore store) {          // injected
 *     ...
 * }
 * }</pre>
 *
 * <p>The store is available as a {@link MetaStore} parameter of test methods, of
 * {@code @BeforeEach} and {@code @AfterEach} methods, and through {@link #store()} and
 * {@link #directory()} for the test running now. The extension depends on no backend: the
 * factory decides what to open. It closes the store even when the test failed, and fails the
 * test if the store cannot be closed or the directory cannot be deleted.
 *
 * <p>It also supplies the stores of the contract suites, which open several per test (one per
 * generated sequence of the model-equivalence property) and hand each one race hooks:
 *
 * <pre>{@code
 * class MyStoreContractTest extends MetaStoreContract {
 *     @RegisterExtension
 *     static TempDirStoreExtension stores = TempDirStoreExtension.forContract(
 *             (dir, hooks) -> RocksDbMetaStore.builder().directory(dir).raceHooks(hooks).build());
 *
 *     @Override
 *     protected MetaStore openStore(RaceHooks hooks) throws Exception {
 *         return stores.open(hooks);                // a new, empty store in a new directory
 *     }
 * }
 * }</pre>
 *
 * Every store {@link #open(RaceHooks)} opened during a test is closed (if it is still open) and
 * its directory deleted after the test. Such an extension opens no store of its own before each
 * test; a {@code MetaStore} parameter or {@link #store()} opens one with {@link RaceHooks#NONE}.
 *
 * <p>Thread-safe; with parallel test execution use the parameter rather than {@link #store()}.
 */
public final class TempDirStoreExtension implements BeforeEachCallback, AfterEachCallback, ParameterResolver {

    /** Opens a store in an existing, empty directory that the extension owns and deletes afterwards. */
    @FunctionalInterface
    public interface StoreFactory {
        /**
         * Opens a store in {@code directory}.
         *
         * @param directory an existing, empty directory
         * @return the opened store, never null
         * @throws Exception if the store cannot be opened; the test fails with it
         */
        MetaStore open(Path directory) throws Exception;
    }

    /** Opens a store in an existing, empty directory, calling {@code hooks} inside its commits (see {@link RaceHooks}). */
    @FunctionalInterface
    public interface HookedStoreFactory {
        /**
         * Opens a store in {@code directory} that calls {@code hooks}.
         *
         * @param directory an existing, empty directory
         * @param hooks the race hooks the contract suite hands the store
         * @return the opened store, never null
         * @throws Exception if the store cannot be opened; the test fails with it
         */
        MetaStore open(Path directory, RaceHooks hooks) throws Exception;
    }

    private record Opened(Path directory, MetaStore store) {
    }

    private final HookedStoreFactory factory;
    private final boolean eager;
    private final Map<String, Opened> byTest = new ConcurrentHashMap<>();
    @SuppressWarnings("ThreadLocalUsage") // per extension instance (one per test class), per test thread
    private final ThreadLocal<Opened> current = new ThreadLocal<>();
    @SuppressWarnings("ThreadLocalUsage")
    private final ThreadLocal<List<Opened>> openedByTest = new ThreadLocal<>();

    private TempDirStoreExtension(HookedStoreFactory factory, boolean eager) {
        this.factory = factory;
        this.eager = eager;
    }

    /**
     * An extension that opens each test's store with {@code factory}, before the test.
     *
     * @throws io.lake.meta.InvalidArgumentException if {@code factory} is null
     */
    public static TempDirStoreExtension of(StoreFactory factory) {
        StoreFactory f = notNull(factory);
        return new TempDirStoreExtension((dir, hooks) -> f.open(dir), true);
    }

    /**
     * An extension that supplies a contract suite's stores: {@link #open(RaceHooks)} opens each
     * with {@code factory} in a new directory; all are closed and deleted after the test.
     *
     * @throws io.lake.meta.InvalidArgumentException if {@code factory} is null
     */
    public static TempDirStoreExtension forContract(HookedStoreFactory factory) {
        return new TempDirStoreExtension(notNull(factory), false);
    }

    private static <T> T notNull(T factory) {
        if (factory == null) {
            throw new io.lake.meta.InvalidArgumentException("factory must not be null");
        }
        return factory;
    }

    /** {@inheritDoc} Opens the test's store (for {@link #of}) in a new temporary directory. */
    @Override
    public void beforeEach(ExtensionContext context) throws Exception {
        openedByTest.set(new ArrayList<>());
        if (eager) {
            Opened opened = openNew(RaceHooks.NONE);
            byTest.put(context.getUniqueId(), opened);
            current.set(opened);
        }
    }

    /**
     * Opens a new, empty store with {@code hooks} in a new temporary directory, for the test
     * running on this thread: what a contract test's {@code openStore(hooks)} returns. The
     * extension closes it (if it is still open) and deletes its directory after the test.
     *
     * @throws IllegalStateException when no test of a class that registered this extension is running on this thread
     * @throws Exception whatever the factory threw; the directory is deleted again
     */
    public MetaStore open(RaceHooks hooks) throws Exception {
        if (openedByTest.get() == null) {
            throw new IllegalStateException("no test is running on this thread: call open(hooks) from a test, a"
                    + " @BeforeEach method or a contract's openStore(hooks), in a class that registers this extension"
                    + " with @RegisterExtension");
        }
        return openNew(hooks == null ? RaceHooks.NONE : hooks).store();
    }

    private Opened openNew(RaceHooks hooks) throws Exception {
        Path directory = Files.createTempDirectory("lake-meta-test-");
        MetaStore store;
        try {
            store = factory.open(directory, hooks);
            if (store == null) {
                throw new IllegalStateException("the store factory returned null for " + directory);
            }
        } catch (Exception | Error e) {
            deleteRecursively(directory, e);
            throw e;
        }
        Opened opened = new Opened(directory, store);
        openedByTest.get().add(opened);
        return opened;
    }

    /** {@inheritDoc} Closes every store opened for the test and deletes its directory. */
    @Override
    public void afterEach(ExtensionContext context) throws Exception {
        current.remove();
        byTest.remove(context.getUniqueId());
        List<Opened> all = openedByTest.get();
        openedByTest.remove();
        if (all == null) {
            return;
        }
        Exception failure = null;
        for (Opened opened : all) {
            Exception closing = null;
            try {
                opened.store().close();
            } catch (Exception e) {
                closing = e;
            }
            deleteRecursively(opened.directory(), closing != null ? closing : failure);
            if (closing != null) {
                if (failure == null) {
                    failure = closing;
                } else {
                    failure.addSuppressed(closing);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    /** {@inheritDoc} */
    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == MetaStore.class;
    }

    /** {@inheritDoc} */
    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        Opened opened = byTest.computeIfAbsent(context.getUniqueId(), id -> lazily());
        if (opened == null) {
            throw new ParameterResolutionException("no store is open for " + context.getDisplayName()
                    + ": TempDirStoreExtension injects a MetaStore into test, @BeforeEach and @AfterEach methods only");
        }
        return opened.store();
    }

    /** The store of the test running on this thread (for {@link #forContract}: opened on first use). */
    public MetaStore store() {
        return opened().store();
    }

    /** A store with no hooks for a {@link #forContract} extension's parameter; null outside a test. */
    private @Nullable Opened lazily() {
        if (openedByTest.get() == null) {
            return null;
        }
        try {
            Opened opened = openNew(RaceHooks.NONE);
            current.set(opened);
            return opened;
        } catch (Exception e) {
            throw new ParameterResolutionException("could not open the test's store: " + e, e);
        }
    }

    /** The directory of the store of the test running on this thread. */
    public Path directory() {
        return opened().directory();
    }

    private Opened opened() {
        Opened opened = current.get();
        if (opened == null && !eager) {
            opened = lazily();
        }
        if (opened == null) {
            throw new IllegalStateException("no store is open on this thread: call store() and directory() from a test"
                    + " or a @BeforeEach/@AfterEach method");
        }
        return opened;
    }

    private static void deleteRecursively(Path directory, @Nullable Throwable pending) throws IOException {
        try {
            Files.walkFileTree(directory, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    Files.delete(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
                    if (e != null) {
                        throw e;
                    }
                    Files.delete(dir);
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException | UncheckedIOException e) {
            IOException failure = new IOException("could not delete the test store's directory " + directory, e);
            if (pending == null) {
                throw failure;
            }
            pending.addSuppressed(failure);
        }
    }

    /** {@inheritDoc} */
    @Override
    public String toString() {
        return "TempDirStoreExtension[" + factory + "]";
    }
}
