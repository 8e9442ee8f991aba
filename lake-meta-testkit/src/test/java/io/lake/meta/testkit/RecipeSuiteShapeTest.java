package io.lake.meta.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * Every suite a backend runs, as a build tool's runner sees it: each of its tests is a method of the
 * backend's own class (so Surefire counts them on that class, and two backends running one suite in
 * a module do not share a report), named {@code group > behaviour}, none lost to a method of one
 * group hiding another's.
 */
class RecipeSuiteShapeTest {

    @ParameterizedTest
    @ValueSource(
            strings = {
                "io.lake.meta.testkit.counter.InMemoryCounterTest",
                "io.lake.meta.testkit.lock.InMemoryFencedLockTest",
                "io.lake.meta.testkit.registry.InMemoryTableRegistryTest",
                "io.lake.meta.testkit.maintenance.InMemoryMaintenanceTest",
                "io.lake.meta.testkit.maintenance.InMemoryFencedTableLocksTest",
                "io.lake.meta.testkit.ops.InMemoryOperationJournalTest",
                "io.lake.meta.testkit.ops.InMemoryFencedPublicationTest",
                "io.lake.meta.testkit.lease.InMemoryLeaseFencingTest",
                "io.lake.meta.testkit.InMemoryMetaStoreContractTest"
            })
    void everyTestOfASuite_isAMethodOfTheBackendsClass_namedGroupThenBehaviour(String backendTestName)
            throws Exception {
        Class<?> backendTest = Class.forName(backendTestName);
        TestPlan plan = LauncherFactory.create()
                .discover(LauncherDiscoveryRequestBuilder.request()
                        .selectors(selectClass(backendTest))
                        .build());
        List<TestIdentifier> tests = new ArrayList<>();
        for (TestIdentifier root : plan.getRoots()) {
            plan.getDescendants(root).stream().filter(TestIdentifier::isTest).forEach(tests::add);
        }
        Set<String> groups = new HashSet<>();
        int declared = 0;
        for (Class<?> type : typesOf(backendTest)) {
            ContractGroup group = type.getAnnotation(ContractGroup.class);
            if (group != null) {
                groups.add(group.value());
            }
            declared += (int) Arrays.stream(type.getDeclaredMethods())
                    .filter(RecipeSuiteShapeTest::isTest)
                    .count();
        }

        assertThat(typesOf(backendTest))
                .as("@Nested groups left in the suite of %s", backendTest.getSimpleName())
                .noneMatch(type -> type.isAnnotationPresent(Nested.class));
        assertThat(tests)
                .as(
                        "tests discovered for %s: every test its suite declares, none hidden by another",
                        backendTest.getSimpleName())
                .hasSize(declared)
                .isNotEmpty();
        Set<String> names = new HashSet<>();
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
            assertThat(groups).as("the group of %s", test.getDisplayName()).contains(group);
            assertThat(names.add(test.getDisplayName()))
                    .as("%s named once", test.getDisplayName())
                    .isTrue();
        }
    }

    private static boolean isTest(Method method) {
        return method.isAnnotationPresent(Test.class) || method.isAnnotationPresent(ParameterizedTest.class);
    }

    /** The backend's class, its superclasses and every class nested in them. */
    private static List<Class<?>> typesOf(Class<?> backendTest) {
        List<Class<?>> types = new ArrayList<>();
        for (Class<?> type = backendTest; type != null && type != Object.class; type = type.getSuperclass()) {
            addWithNested(type, types);
        }
        return types;
    }

    private static void addWithNested(Class<?> type, List<Class<?>> types) {
        types.add(type);
        for (Class<?> nested : type.getDeclaredClasses()) {
            addWithNested(nested, types);
        }
    }
}
