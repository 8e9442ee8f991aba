package io.lake.meta.arguments;

import io.lake.meta.*;
import io.lake.meta.Ticker;
import io.lake.meta.lease.LeaderElection;
import io.lake.meta.lease.LeadershipListener;
import io.lake.meta.lease.LeadershipStatus;
import io.lake.meta.lease.LeaseAuthority;
import io.lake.meta.lease.LeaseCandidate;
import io.lake.meta.spi.ForwardingMetaStore;
import io.lake.meta.spi.PollingWatcher;
import io.lake.meta.spi.RaceHooks;
import io.lake.meta.spi.WatchRegistry;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.platform.commons.support.ReflectionSupport;

/**
 * The public entry points of the api's value types, found by reflection so that a constructor,
 * factory or method added later is walked without anyone listing it: every public constructor
 * and static method, and every public instance method that takes a reference argument, of every
 * public type in {@code io.lake.meta}, {@code io.lake.meta.spi} and {@code io.lake.meta.lease}
 * that ships with the library, except the types {@link #NOT_WALKED} names with a reason.
 */
final class ApiEntryPoints {

    static final Set<String> WALKED_PACKAGES = Set.of(
            "io.lake.meta",
            "io.lake.meta.spi",
            "io.lake.meta.lease",
            "io.lake.meta.counter",
            "io.lake.meta.fenced",
            "io.lake.meta.lock",
            "io.lake.meta.maintenance",
            "io.lake.meta.ops",
            "io.lake.meta.registry",
            "io.lake.meta.recipes");

    /**
     * Public types whose entry points are not value-object factories, each with the reason. Every
     * other public type of the walked packages (exceptions and enums aside) is walked, so a type
     * added later is covered without anyone listing it.
     */
    static final Map<Class<?>, String> NOT_WALKED = Map.ofEntries(
            Map.entry(
                    MetaStore.class,
                    "a store: its methods are checked against every backend by the contract suite"
                            + " (KeyAndValueRulesContract.nullArguments_areRejected_andNothingIsWritten)"),
            Map.entry(ForwardingMetaStore.class, "a decorator base: protected constructor, methods forward to a store"),
            Map.entry(RaceHooks.class, "a backend's pause points, implemented by tests"),
            Map.entry(LeaseAuthority.class, "implemented by LeaderElection or by callers"),
            Map.entry(LeadershipListener.class, "implemented by callers"),
            Map.entry(Ticker.class, "implemented by callers; its one factory takes no argument"),
            Map.entry(io.lake.meta.lock.LockListener.class, "implemented by callers"),
            Map.entry(io.lake.meta.lease.LeaderTask.class, "implemented by callers"),
            Map.entry(io.lake.meta.lock.LockHold.class, "an interface whose methods take no reference argument"),
            Map.entry(
                    io.lake.meta.lock.FencedLock.class,
                    "an interface: its implementation is package-private;" + " its builder is walked"),
            Map.entry(io.lake.meta.maintenance.TableMaintainer.class, "implemented by callers"),
            Map.entry(io.lake.meta.maintenance.TableLockProvider.class, "implemented by callers"),
            Map.entry(io.lake.meta.maintenance.TableLock.class, "implemented by callers"),
            Map.entry(
                    io.lake.meta.counter.MonotonicCounter.class,
                    "an interface: its implementation is package-private;" + " its builder is walked"),
            Map.entry(
                    WatchRegistry.class,
                    "backend machinery that reads and dispatches; its nulls are refused in"
                            + " WatchRegistryTest#nullArguments_areInvalidArguments_andRegisterNothing"),
            Map.entry(
                    PollingWatcher.class,
                    "backend machinery that reads its store; its bad arguments are refused in"
                            + " the testkit's PollingWatcherTest#badArguments_areInvalidArguments"),
            Map.entry(
                    LeaseCandidate.Builder.class,
                    "a builder: refuses configuration mistakes like every builder" + " (LeaseCandidateBuilderTest)"),
            Map.entry(
                    LeaderElection.Builder.class,
                    "a builder: refuses configuration mistakes like every builder"
                            + " of the project (InvalidArgumentException / IllegalStateException: LeaderElectionBuilderTest)"),
            Map.entry(LeadershipStatus.class, "a sealed interface without factories"));

    private ApiEntryPoints() {}

    /** Every public type of the walked packages shipped in the library (not the tests), nested ones included. */
    static List<Class<?>> publicTypes() {
        // the contract (lake-meta-api) and the recipes (lake-meta-recipes): two jars, or two class directories
        Set<Object> libraries = Set.of(
                MetaStore.class.getProtectionDomain().getCodeSource().getLocation(),
                io.lake.meta.lease.LeaderElection.class
                        .getProtectionDomain()
                        .getCodeSource()
                        .getLocation());
        java.util.function.Predicate<Class<?>> shipped = type -> WALKED_PACKAGES.contains(type.getPackageName())
                && libraries.contains(type.getProtectionDomain().getCodeSource().getLocation());
        // the tests run on the class path (they span two modules' packages)
        List<Class<?>> found = ReflectionSupport.findAllClassesInPackage("io.lake.meta", shipped, name -> true);
        Set<Class<?>> all = new java.util.HashSet<>();
        found.forEach(type -> addWithNested(type, all));
        return all.stream()
                .filter(ApiEntryPoints::isPublicApi)
                .sorted(Comparator.comparing(Class::getName))
                .collect(Collectors.toList());
    }

    /** The types walked: public, not an exception or an enum, not named in the exclusion. */
    static List<Class<?>> walkedTypes() {
        return publicTypes().stream()
                .filter(type -> !Throwable.class.isAssignableFrom(type))
                .filter(type -> !type.isEnum())
                .filter(type -> !NOT_WALKED.containsKey(type))
                .collect(Collectors.toList());
    }

    /** Every entry point of the walked types, in a stable order. */
    static List<Executable> all() {
        List<Executable> points = new ArrayList<>();
        for (Class<?> type : walkedTypes()) {
            if (!type.isInterface() && !Modifier.isAbstract(type.getModifiers())) {
                points.addAll(Arrays.asList(type.getConstructors()));
            }
            Arrays.stream(type.getDeclaredMethods())
                    .filter(m -> Modifier.isPublic(m.getModifiers()) && !m.isSynthetic() && !m.isBridge())
                    .filter(m -> Modifier.isStatic(m.getModifiers()) || isCheckedInstanceMethod(m))
                    .forEach(points::add);
        }
        points.sort(Comparator.comparing(ApiEntryPoints::describe));
        return points;
    }

    /** {@code KeyPrefix.family(String)}, {@code new PageCost(long, double)}, {@code spi.PageCursor.startOf(int)}. */
    static String describe(Executable point) {
        String params = Arrays.stream(point.getParameterTypes())
                .map(Class::getSimpleName)
                .collect(Collectors.joining(", "));
        String owner = ownerName(point.getDeclaringClass());
        return point instanceof Constructor
                ? "new " + owner + "(" + params + ")"
                : owner + "." + point.getName() + "(" + params + ")";
    }

    /** The type's name relative to {@code io.lake.meta}: {@code KeyPrefix}, {@code lease.LeaseRecord}, {@code Mutation.Create}. */
    static String ownerName(Class<?> type) {
        return type.getName().substring("io.lake.meta.".length()).replace('$', '.');
    }

    /** The names of {@link #all()}, for reports. */
    static Set<String> describeAll() {
        return all().stream().map(ApiEntryPoints::describe).collect(Collectors.toCollection(TreeSet::new));
    }

    private static boolean isCheckedInstanceMethod(Method m) {
        if (Modifier.isAbstract(m.getModifiers())
                || Arrays.stream(m.getParameterTypes()).allMatch(Class::isPrimitive)) {
            return false;
        }
        // equals(null) answers false and compareTo(null) throws NullPointerException by the
        // contracts of Object and Comparable, which collections rely on.
        return !(m.getName().equals("equals") && m.getParameterCount() == 1)
                && !(m.getName().equals("compareTo") && m.getParameterCount() == 1);
    }

    private static boolean isPublicApi(Class<?> type) {
        for (Class<?> t = type; t != null; t = t.getEnclosingClass()) {
            if (!Modifier.isPublic(t.getModifiers()) || t.isAnonymousClass() || t.isLocalClass() || t.isSynthetic()) {
                return false;
            }
        }
        return true;
    }

    private static void addWithNested(Class<?> type, Set<Class<?>> into) {
        if (into.add(type)) {
            Stream.of(type.getDeclaredClasses()).forEach(nested -> addWithNested(nested, into));
        }
    }
}
