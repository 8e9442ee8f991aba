package io.lake.meta.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import io.lake.meta.MetaStore;
import io.lake.meta.spi.RaceHooks;
import io.lake.meta.testkit.counter.CounterSuite;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/**
 * Where a suite's backend comes from, run the way a build tool's runner runs a backend's classes:
 * {@code @Backend} creates one factory per annotated class and closes it after the class, nested
 * suites share the outer class's, a {@code @ParameterizedClass} runs each configuration on its own
 * factory, and a suite without a backend says how to name one.
 */
class BackendExtensionTest {

    /** What the factories did, in order: "open 1", "close 1", ... */
    static final List<String> EVENTS = new CopyOnWriteArrayList<>();

    static final AtomicInteger CREATED = new AtomicInteger();

    @BeforeEach
    void forget() {
        EVENTS.clear();
        CREATED.set(0);
    }

    static final class CountingBackend implements BackendFactory {
        private final String name;

        CountingBackend() {
            this(Integer.toString(CREATED.incrementAndGet()));
        }

        CountingBackend(String name) {
            this.name = name;
        }

        @Override
        public MetaStore open(StoreContext context) {
            EVENTS.add("open " + name);
            return InMemoryMetaStore.withHooks(context.raceHooks());
        }

        @Override
        public void close() {
            EVENTS.add("close " + name);
        }

        @Override
        public String toString() {
            return name;
        }
    }

    /** A suite of two tests, each opening a store of its backend. */
    abstract static class TwoTests extends BackendSuite {
        @Test
        void first() throws Exception {
            openStore(RaceHooks.NONE, Clock.systemUTC()).close();
        }

        @Test
        void second() throws Exception {
            openStore(RaceHooks.NONE, Clock.systemUTC()).close();
        }
    }

    @Backend(CountingBackend.class)
    static class OneClass extends TwoTests {}

    @Backend(CountingBackend.class)
    static class Suites {
        @Nested
        class First extends TwoTests {}

        @Nested
        class Second extends TwoTests {}
    }

    @ParameterizedClass(name = "[{0}]")
    @MethodSource("configurations")
    static class Configurations extends TwoTests {
        @Parameter
        CountingBackend backend;

        static Stream<CountingBackend> configurations() {
            return Stream.of(new CountingBackend("a"), new CountingBackend("b"));
        }
    }

    static class NoBackend extends TwoTests {}

    static final class NoDefaultConstructor implements BackendFactory {
        NoDefaultConstructor(String unused) {}

        @Override
        public MetaStore open(StoreContext context) {
            return InMemoryMetaStore.create();
        }
    }

    @Backend(NoDefaultConstructor.class)
    static class UnconstructibleBackend extends TwoTests {}

    /** Returns its one store on every call, as a factory caching its store would. */
    static final class OneStoreBackend implements BackendFactory {
        private final MetaStore store = InMemoryMetaStore.create();

        @Override
        public MetaStore open(StoreContext context) {
            return store;
        }
    }

    @Backend(OneStoreBackend.class)
    static class TwoStoresInOneTest extends BackendSuite {
        @Test
        void opensTwoStores() throws Exception {
            try (MetaStore first = openStore(RaceHooks.NONE, Clock.systemUTC());
                    MetaStore second = openStore(RaceHooks.NONE, Clock.systemUTC())) {
                assertThat(second).isNotSameAs(first);
            }
        }
    }

    @Backend(OneStoreBackend.class)
    static class OneStoreForTwoTests extends TwoTests {}

    abstract static class AbstractBackend implements BackendFactory {}

    @Backend(AbstractBackend.class)
    static class AbstractFactory extends TwoTests {}

    /** A backend's suite class that forgot {@code @Backend}. */
    static class CounterWithoutBackend extends CounterSuite {}

    private static TestExecutionSummary run(Class<?> testClass) {
        SummaryGeneratingListener listener = new SummaryGeneratingListener();
        LauncherFactory.create()
                .execute(
                        LauncherDiscoveryRequestBuilder.request()
                                .selectors(selectClass(testClass))
                                .build(),
                        listener);
        return listener.getSummary();
    }

    @Test
    void backendAnnotation_createsOneFactoryForTheClass_andClosesItAfterTheClass() {
        TestExecutionSummary summary = run(OneClass.class);

        assertThat(summary.getTestsSucceededCount()).isEqualTo(2);
        assertThat(EVENTS).containsExactly("open 1", "open 1", "close 1");
    }

    @Test
    void nestedSuites_shareTheFactoryOfTheClassCarryingTheAnnotation() {
        TestExecutionSummary summary = run(Suites.class);

        assertThat(summary.getTestsSucceededCount()).isEqualTo(4);
        assertThat(EVENTS).containsExactly("open 1", "open 1", "open 1", "open 1", "close 1");
    }

    @Test
    void parameterizedClass_runsEachConfigurationOnItsOwnFactory_closedAfterItsRun() {
        TestExecutionSummary summary = run(Configurations.class);

        assertThat(summary.getTestsSucceededCount()).isEqualTo(4);
        assertThat(EVENTS).containsExactly("open a", "open a", "close a", "open b", "open b", "close b");
    }

    @Test
    void aSuiteWithoutABackend_failsEveryTest_sayingHowToNameOne() {
        TestExecutionSummary summary = run(NoBackend.class);

        assertThat(summary.getTestsFailedCount()).isEqualTo(2);
        assertThat(summary.getFailures())
                .allSatisfy(failure -> assertThat(failure.getException())
                        .hasMessageContaining("no backend for")
                        .hasMessageContaining("@Backend(YourBackend.class)"));
    }

    @Test
    void aFactoryWithoutANoArgumentConstructor_failsNamingIt() {
        TestExecutionSummary summary = run(UnconstructibleBackend.class);

        assertThat(summary.getTestsFailedCount()).isEqualTo(2);
        assertThat(summary.getFailures())
                .allSatisfy(failure -> assertThat(failure.getException())
                        .hasStackTraceContaining("cannot create")
                        .hasStackTraceContaining("NoDefaultConstructor"));
    }

    @Test
    void aFactoryReturningAStoreItAlreadyReturned_failsAtOnce_sayingSo() {
        TestExecutionSummary summary = run(TwoStoresInOneTest.class);

        assertThat(summary.getTestsFailedCount()).isEqualTo(1);
        assertThat(summary.getFailures())
                .allSatisfy(failure -> assertThat(failure.getException())
                        .hasMessageContaining("returned a store it had already returned")
                        .hasMessageContaining("new, empty store"));
    }

    @Test
    void aFactoryReturningTheStoreOfAnEarlierTest_failsAtOnce_sayingSo() {
        TestExecutionSummary summary = run(OneStoreForTwoTests.class);

        assertThat(summary.getTestsSucceededCount()).isEqualTo(1);
        assertThat(summary.getFailures())
                .singleElement()
                .satisfies(failure -> assertThat(failure.getException())
                        .hasMessageContaining("returned a store it had already returned"));
    }

    @Test
    void anAbstractFactory_failsSayingItIsAbstract() {
        TestExecutionSummary summary = run(AbstractFactory.class);

        assertThat(summary.getTestsFailedCount()).isEqualTo(2);
        assertThat(summary.getFailures())
                .allSatisfy(failure -> assertThat(failure.getException())
                        .hasMessageContaining(AbstractBackend.class.getName() + " is abstract"));
    }

    @Test
    void aRecipeSuiteWithoutABackend_namesTheBackendsClass_notTheTestkits() {
        TestExecutionSummary summary = run(CounterWithoutBackend.class);

        assertThat(summary.getTestsFailedCount()).isPositive().isEqualTo(summary.getTestsFoundCount());
        assertThat(summary.getFailures())
                .allSatisfy(failure -> assertThat(failure.getException())
                        .hasMessageContaining("no backend for " + CounterWithoutBackend.class.getName() + ":"));
    }
}
