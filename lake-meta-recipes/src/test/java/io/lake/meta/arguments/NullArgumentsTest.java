package io.lake.meta.arguments;

import static org.assertj.core.api.Assertions.assertThat;

import io.lake.meta.*;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every public entry point of the api's value types, found by {@link ApiEntryPoints}, answers a
 * null argument with {@link InvalidArgumentException}, never a {@link NullPointerException}
 * from inside or a value built from the text "null". Each entry point is first called with
 * valid arguments, so a refusal is known to be about the null.
 */
class NullArgumentsTest {

    /** Fewer would mean the walk lost types (a scan or filter broke), not that the api shrank. */
    private static final int MINIMUM_ENTRY_POINTS = 150;

    @TestFactory
    List<DynamicTest> everyEntryPoint_refusesANullArgument_withTheTypedError() {
        List<DynamicTest> tests = new ArrayList<>();
        for (Executable point : ApiEntryPoints.all()) {
            String name = ApiEntryPoints.describe(point);
            tests.add(DynamicTest.dynamicTest(
                    name + " accepts valid arguments", () -> call(point, ValidArguments.forAll(point))));
            Class<?>[] types = point.getParameterTypes();
            for (int i = 0; i < types.length; i++) {
                if (types[i].isPrimitive()) {
                    continue;
                }
                int index = i;
                tests.add(DynamicTest.dynamicTest(
                        name + " refuses null argument " + i + " (" + types[i].getSimpleName() + ")",
                        () -> assertRefusesNull(point, index)));
            }
        }
        return tests;
    }

    @Test
    void walk_reachesEveryValueType_andTheEntryPointsIssue8Names() {
        Set<String> visited = ApiEntryPoints.describeAll();
        // The list goes to the build log, so a reader sees what the walk covered without a debugger.
        System.out.println(
                "NullArgumentsTest walks " + visited.size() + " entry points:\n  " + String.join("\n  ", visited));

        assertThat(visited)
                .as("entry points walked")
                .hasSizeGreaterThanOrEqualTo(MINIMUM_ENTRY_POINTS)
                .contains(
                        "KeyPrefix.family(String)",
                        "MetaKey.fromUtf8(byte[])",
                        "PageRequest.next(Page)",
                        "WriteResult.conflict(Optional)",
                        "GuardedResult.targetConflict(WriteResult)",
                        "new PageCost(long, double)",
                        "lease.LeaseRecord.decode(MetaKey, MetaValue)",
                        "lease.LeaseRecord.held(String, long, long, String)",
                        "MetaValue.utf8(String)",
                        "spi.PageTokenCodec.decode(KeyPrefix, String)",
                        "spi.PageCursor.after(int, KeyPrefix, MetaKey)",
                        "Mutation.create(MetaKey, MetaValue)",
                        "new Mutation.Update(MetaKey, MetaValue, MetaValue)",
                        // issue 23: every recipe package
                        "lease.LeaderElection.addListener(LeadershipListener)",
                        "lease.LeaderElection.guardRejected(LeaseGuard)",
                        "ops.OperationJournal.complete(OperationRecord, String)",
                        "new ops.OperationOwner(String, long)",
                        "recipes.TypedPageRequest.next(TypedPage)",
                        "registry.TableRegistry.inNamespace(String, int)",
                        "fenced.FencedMetaStore.over(MetaStore, LeaseAuthority)",
                        "maintenance.MaintenanceSweeper.tick(BooleanSupplier)",
                        "lock.FencedLock.Builder.listenerExecutor(Executor)",
                        "counter.MonotonicCounter.Builder.store(MetaStore)",
                        "maintenance.FencedTableLocks.tryLock(TableId)");
        assertThat(ApiEntryPoints.walkedTypes().stream()
                        .map(Class::getPackageName)
                        .collect(Collectors.toSet()))
                .as("packages the walked types lie in")
                .containsExactlyInAnyOrderElementsOf(ApiEntryPoints.WALKED_PACKAGES);
    }

    @Test
    void exclusions_nameOnlyPublicTypesOfTheWalkedPackages() {
        // A new public type is walked unless excluded; an exclusion must not outlive its type.
        assertThat(ApiEntryPoints.publicTypes())
                .as("public types of the walked packages")
                .containsAll(ApiEntryPoints.NOT_WALKED.keySet());
    }

    private static void assertRefusesNull(Executable point, int index) {
        Object[] args = ValidArguments.forAll(point);
        args[index] = null;
        Object answer;
        try {
            answer = call(point, args);
        } catch (InvalidArgumentException expected) {
            assertThat(expected.getMessage()).as("message of the refusal").isNotBlank();
            return;
        } catch (Throwable other) {
            throw new AssertionError(
                    ApiEntryPoints.describe(point) + " with null argument " + index + " threw " + other
                            + " instead of InvalidArgumentException",
                    other);
        }
        throw new AssertionError(ApiEntryPoints.describe(point) + " with null argument " + index + " returned " + answer
                + " instead of refusing with InvalidArgumentException");
    }

    /** Calls {@code point} and rethrows what it threw, unwrapped from reflection. */
    private static Object call(Executable point, Object[] args) throws Throwable {
        try {
            if (point instanceof Constructor<?> constructor) {
                return constructor.newInstance(args);
            }
            Method method = (Method) point;
            Object receiver = Modifier.isStatic(method.getModifiers())
                    ? null
                    : ValidArguments.receiver(method.getDeclaringClass());
            return method.invoke(receiver, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
