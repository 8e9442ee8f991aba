package io.lake.meta.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import io.lake.meta.testkit.lease.InMemoryLeaseFencingTest;
import io.lake.meta.testkit.lease.LeaseFencingSuite;
import io.lake.meta.testkit.lease.LeaseSupport;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * The suites' shape, as a build tool's runner sees it: every contract test belongs to the
 * backend's own class (so Surefire counts them on that class's line, not {@code Tests run: 0}),
 * and each is named by its concept group and behaviour.
 */
class ContractShapeTest {

    private static final List<Class<?>> STORE_GROUPS = List.of(
            ConditionalWriteContract.class,
            GuardedMutationContract.class,
            TransactionContract.class,
            BatchReadContract.class,
            WatchContract.class,
            PageContract.class,
            PageTokenContract.class,
            KeyAndValueRulesContract.class,
            ClosedStoreContract.class,
            RaceContract.class,
            ModelEquivalenceContract.class,
            ConcurrentWriteContract.class,
            KeyFamiliesContract.class);

    /** The lease suite's groups: every class of its chain below the support class (epochs, guards, ..., lifecycle). */
    private static final List<Class<?>> LEASE_GROUPS = chainBelow(LeaseFencingSuite.class, LeaseSupport.class);

    /**
     * Discovers {@code backendTest} as a runner does and checks that each test the groups declare is
     * a test of {@code backendTest} itself, named {@code group > behaviour}.
     */
    private static List<String> assertShape(Class<?> backendTest, List<Class<?>> groups) {
        TestPlan plan = LauncherFactory.create()
                .discover(LauncherDiscoveryRequestBuilder.request()
                        .selectors(selectClass(backendTest))
                        .build());
        List<TestIdentifier> tests = new ArrayList<>();
        for (TestIdentifier root : plan.getRoots()) {
            plan.getDescendants(root).stream().filter(TestIdentifier::isTest).forEach(tests::add);
        }
        long declared = groups.stream()
                .flatMap(g -> Arrays.stream(g.getDeclaredMethods()))
                .filter(m -> m.isAnnotationPresent(Test.class))
                .count();
        Set<String> groupNames = groups.stream()
                .map(g -> g.getAnnotation(ContractGroup.class).value())
                .collect(Collectors.toSet());

        assertThat(tests)
                .as("tests discovered for %s", backendTest.getSimpleName())
                .hasSize((int) declared);
        for (TestIdentifier test : tests) {
            MethodSource source = (MethodSource) test.getSource().orElseThrow();
            assertThat(source.getClassName())
                    .as("the class %s is reported under", test.getDisplayName())
                    .isEqualTo(backendTest.getName());
            assertThat(plan.getParent(test).flatMap(TestIdentifier::getSource))
                    .as("the container of %s", test.getDisplayName())
                    .contains(ClassSource.from(backendTest));
            String group = test.getDisplayName()
                    .substring(0, Math.max(0, test.getDisplayName().indexOf(" > ")));
            assertThat(groupNames).as("the group of %s", test.getDisplayName()).contains(group);
        }
        return tests.stream().map(TestIdentifier::getDisplayName).toList();
    }

    @Test
    void everyStoreContractTest_belongsToTheBackendsClass_namedGroupThenBehaviour() {
        assertThat(assertShape(InMemoryMetaStoreContractTest.class, STORE_GROUPS))
                .hasSizeGreaterThan(100)
                .contains(
                        "conditional writes > update with stale expected bytes conflicts and keeps value",
                        "races > two creators interleaved inside a commit second conflicts with the firsts value");
    }

    @Test
    void everyLeaseContractTest_belongsToTheBackendsClass_namedGroupThenBehaviour() {
        assertThat(assertShape(InMemoryLeaseFencingTest.class, LEASE_GROUPS))
                .hasSizeGreaterThan(50)
                .contains("epochs > campaign absent lease acquires epoch one");
    }

    @Test
    void everyGroupIsNamed_andNoneIsLeftNested() {
        for (Class<?> group : concat(STORE_GROUPS, LEASE_GROUPS)) {
            assertThat(group.getAnnotation(ContractGroup.class))
                    .as("@ContractGroup on %s", group.getSimpleName())
                    .isNotNull();
            assertThat(group.getDeclaredClasses())
                    .as("@Nested groups left in %s", group.getSimpleName())
                    .noneMatch(inner -> inner.isAnnotationPresent(Nested.class));
        }
    }

    private static List<Class<?>> chainBelow(Class<?> suite, Class<?> support) {
        List<Class<?>> chain = new ArrayList<>();
        for (Class<?> type = suite; type != support; type = type.getSuperclass()) {
            chain.add(0, type);
        }
        return List.copyOf(chain);
    }

    private static List<Class<?>> concat(List<Class<?>> a, List<Class<?>> b) {
        List<Class<?>> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }
}
