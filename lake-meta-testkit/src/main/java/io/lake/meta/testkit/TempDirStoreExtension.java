package io.lake.meta.testkit;

import io.lake.meta.MetaStore;
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
 * <p>The suites of the testkit open their stores through a {@link BackendFactory}, whose
 * {@link StoreContext#newDirectory()} gives each store a directory that is deleted after the test.
 *
 * <p>Thread-safe; with parallel test execution use the parameter rather than {@link #store()}.
 * @since 0.1.0
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

    private record Opened(Path directory, MetaStore store) {}

    private final StoreFactory factory;
    private final Map<String, Opened> byTest = new ConcurrentHashMap<>();
    // per extension instance: each registered extension tracks its own stores on the test's thread
    @SuppressWarnings("ThreadLocalUsage")
    private final ThreadLocal<Opened> current = new ThreadLocal<>();

    @SuppressWarnings("ThreadLocalUsage")
    private final ThreadLocal<List<Opened>> openedByTest = new ThreadLocal<>();

    private TempDirStoreExtension(StoreFactory factory) {
        this.factory = factory;
    }

    /**
     * An extension that opens each test's store with {@code factory}, before the test.
     *
     * @throws io.lake.meta.InvalidArgumentException if {@code factory} is null
     */
    public static TempDirStoreExtension of(StoreFactory factory) {
        if (factory == null) {
            throw new io.lake.meta.InvalidArgumentException("factory must not be null");
        }
        return new TempDirStoreExtension(factory);
    }

    /** {@inheritDoc} Opens the test's store in a new temporary directory. */
    @Override
    public void beforeEach(ExtensionContext context) throws Exception {
        openedByTest.set(new ArrayList<>());
        Opened opened = openNew();
        byTest.put(context.getUniqueId(), opened);
        current.set(opened);
    }

    private Opened openNew() throws Exception {
        Path directory = Files.createTempDirectory("lake-meta-test-");
        MetaStore store;
        try {
            store = factory.open(directory);
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
        @Nullable Exception failure = null;
        for (Opened opened : all) {
            Exception closing = null;
            try {
                opened.store().close();
            } catch (Exception e) {
                closing = e;
            }
            deleteRecursively(opened.directory(), closing != null ? closing : failure);
            if (closing != null && failure == null) {
                failure = closing;
            } else if (closing != null && failure != null) {
                failure.addSuppressed(closing);
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
        Opened opened = byTest.get(context.getUniqueId());
        if (opened == null) {
            throw new ParameterResolutionException("no store is open for " + context.getDisplayName()
                    + ": TempDirStoreExtension injects a MetaStore into test, @BeforeEach and @AfterEach methods only");
        }
        return opened.store();
    }

    /** The store of the test running on this thread. */
    public MetaStore store() {
        return opened().store();
    }

    /** The directory of the store of the test running on this thread. */
    public Path directory() {
        return opened().directory();
    }

    private Opened opened() {
        Opened opened = current.get();
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
