package io.lake.meta.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Nested;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * The suite's shape, as a build tool's runner sees it: every contract test belongs to the
 * backend's own class (so Surefire counts them on that class's line, not {@code Tests run: 0}),
 * and each is named by its concept group and behaviour.
 */
class ContractShapeTest {

    private static final List<Class<?>> GROUPS = List.of(ConditionalWriteContract.class, GuardedMutationContract.class,
            TransactionContract.class, BatchReadContract.class, WatchContract.class, PageContract.class,
            PageTokenContract.class, KeyAndValueRulesContract.class, ClosedStoreContract.class, RaceContract.class,
            ModelEquivalenceContract.class, ConcurrentWriteContract.class);

    private final TestPlan plan = LauncherFactory.create().discover(LauncherDiscoveryRequestBuilder.request()
            .selectors(selectClass(InMemoryMetaStoreContractTest.class)).build());

    private List<TestIdentifier> tests() {
        List<TestIdentifier> tests = new ArrayList<>();
        for (TestIdentifier root : plan.getRoots()) {
            plan.getDescendants(root).stream().filter(TestIdentifier::isTest).forEach(tests::add);
        }
        return tests;
    }

    @Test
    void everyTestOfEveryGroup_belongsToTheBackendsClass_namedGroupThenBehaviour() {
        List<TestIdentifier> tests = tests();
        long declared = GROUPS.stream().flatMap(g -> Arrays.stream(g.getDeclaredMethods()))
                .filter(m -> m.isAnnotationPresent(Test.class)).count();
        Set<String> groupNames = GROUPS.stream().map(g -> g.getAnnotation(ContractGroup.class).value())
                .collect(Collectors.toSet());

        assertThat(declared).as("tests declared by the groups").isGreaterThan(100);
        assertThat(tests).as("tests discovered for the backend's class").hasSize((int) declared);
        for (TestIdentifier test : tests) {
            MethodSource source = (MethodSource) test.getSource().orElseThrow();
            assertThat(source.getClassName()).as("the class %s is reported under", test.getDisplayName())
                    .isEqualTo(InMemoryMetaStoreContractTest.class.getName());
            assertThat(plan.getParent(test).flatMap(TestIdentifier::getSource)).as("the container of %s", test.getDisplayName())
                    .contains(ClassSource.from(InMemoryMetaStoreContractTest.class));
            String group = test.getDisplayName().substring(0, Math.max(0, test.getDisplayName().indexOf(" > ")));
            assertThat(groupNames).as("the group of %s", test.getDisplayName()).contains(group);
        }
        assertThat(tests).extracting(TestIdentifier::getDisplayName)
                .contains("conditional writes > update with stale expected bytes conflicts and keeps value",
                        "races > two creators interleaved inside a commit second conflicts with the firsts value");
    }

    @Test
    void everyGroupIsNamed() {
        for (Class<?> group : GROUPS) {
            assertThat(group.getAnnotation(ContractGroup.class)).as("@ContractGroup on %s", group.getSimpleName()).isNotNull();
            assertThat(group.getDeclaredClasses()).as("@Nested groups left in %s", group.getSimpleName())
                    .noneMatch(inner -> inner.isAnnotationPresent(Nested.class));
        }
    }
}
