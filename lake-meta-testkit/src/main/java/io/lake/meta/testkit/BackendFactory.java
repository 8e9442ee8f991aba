package io.lake.meta.testkit;

import io.lake.meta.MetaStore;

/**
 * A backend as the suites see it: how to open a fresh, empty store, what the backend can do, and
 * how long the suites wait on it. One class per backend runs every suite of the testkit:
 *
 * <pre>{@code
 * public final class MyBackend implements BackendFactory {
 *     @Override
 *     public MetaStore open(StoreContext context) throws IOException {
 *         return MyStore.builder().directory(context.newDirectory()).raceHooks(context.raceHooks()).build();
 *     }
 * }
 *
 * @Backend(MyBackend.class) class MyStoreContractTest extends MetaStoreSuite {}
 * @Backend(MyBackend.class) class MyStoreLeaseFencingTest extends LeaseFencingSuite {}
 * }</pre>
 *
 * <p>{@link Backend @Backend} creates one instance per test class through its no-argument
 * constructor (for a {@code @Nested} suite: one per class carrying the annotation) and closes it
 * after the class, so an instance may hold what its stores share: a client, a database, a server.
 * A {@code @ParameterizedClass} may instead take the factory as its argument (a field holding a
 * {@code BackendFactory}), one per configuration: each invocation then runs the suite on its own
 * factory, and JUnit closes it after the invocation.
 *
 * <p>A backend that lacks something the suites expect declares it with the reason in
 * {@link #capabilities()}; the suites then expect what the {@link Capability} says instead.
 * @since 0.1.0
 */
@SuppressWarnings("try") // close() may throw what a backend's clean-up throws, InterruptedException too
public interface BackendFactory extends AutoCloseable {

    /**
     * Opens a new, empty store. The suites call it once before each test, and the contract suite
     * again for every generated sequence of its model-equivalence tests (about 150 per run), so
     * every call must return a store that shares no keys with any other (for an embedded backend:
     * in a {@linkplain StoreContext#newDirectory() new directory}; for a server: on a new table).
     * The suites close every store they open.
     *
     * @param context the race hooks the store must call, the test's clocks, directories
     * @return the store, never null
     * @throws Exception if the store cannot be opened; the test fails with it
     */
    MetaStore open(StoreContext context) throws Exception;

    /**
     * What the backend can do, of what the suites expect: {@link Capabilities#all()} unless it
     * declares a capability missing, with the reason.
     *
     * @return the capabilities, never null
     */
    default Capabilities capabilities() {
        return Capabilities.all();
    }

    /**
     * How long the suites wait on this backend and how many sequences they generate:
     * {@link SuiteSettings#defaults()} unless overridden.
     *
     * @return the settings, never null
     */
    default SuiteSettings settings() {
        return SuiteSettings.defaults();
    }

    /** Releases what the stores of this factory shared (clients, databases); nothing by default. */
    @Override
    default void close() throws Exception {}
}
