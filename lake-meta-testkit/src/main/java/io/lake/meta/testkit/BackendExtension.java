package io.lake.meta.testkit;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;
import org.junit.platform.commons.support.HierarchyTraversalMode;
import org.junit.platform.commons.support.ReflectionSupport;

/**
 * Hands the suites their backend (a {@link BackendFactory} parameter): the factory a field of the
 * test instance holds (a {@code @ParameterizedClass} argument), else one instance of the class
 * {@link Backend @Backend} names on the test class or a class enclosing it, created for the class
 * carrying the annotation and closed with it.
 */
final class BackendExtension implements ParameterResolver {

    private static final ExtensionContext.Namespace NAMESPACE =
            ExtensionContext.Namespace.create(BackendExtension.class);

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == BackendFactory.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        Optional<BackendFactory> held = heldByTheTest(context);
        if (held.isPresent()) {
            return held.get();
        }
        for (Class<?> type : testClassesInnermostFirst(context)) {
            Optional<Backend> backend = AnnotationSupport.findAnnotation(type, Backend.class);
            if (backend.isPresent()) {
                return created(context, type, backend.get().value());
            }
        }
        throw new ParameterResolutionException(
                "no backend for " + context.getRequiredTestClass().getName()
                        + ": annotate it with @Backend(YourBackend.class), naming a class that implements BackendFactory,"
                        + " or, in a @ParameterizedClass, give it a field that holds each invocation's BackendFactory");
    }

    /** The one non-null factory the test's instances hold in fields (innermost instance first), if any. */
    private static Optional<BackendFactory> heldByTheTest(ExtensionContext context) {
        List<Object> instances =
                context.getTestInstances().map(i -> i.getAllInstances()).orElse(List.of());
        for (int i = instances.size() - 1; i >= 0; i--) {
            Object instance = instances.get(i);
            List<BackendFactory> held = new ArrayList<>();
            for (Field field : ReflectionSupport.findFields(
                    instance.getClass(), BackendExtension::holdsABackend, HierarchyTraversalMode.TOP_DOWN)) {
                Object value = ReflectionSupport.tryToReadFieldValue(field, instance)
                        .toOptional()
                        .orElse(null);
                if (value != null && !held.contains(value)) {
                    held.add((BackendFactory) value);
                }
            }
            if (held.size() > 1) {
                throw new ParameterResolutionException(instance.getClass().getName() + " holds " + held.size()
                        + " backends in its fields (" + held + "): a suite runs on one");
            }
            if (held.size() == 1) {
                return Optional.of(held.get(0));
            }
        }
        return Optional.empty();
    }

    /** An instance field of a {@link BackendFactory} type, other than the one the suites keep theirs in. */
    private static boolean holdsABackend(Field field) {
        return !Modifier.isStatic(field.getModifiers())
                && BackendFactory.class.isAssignableFrom(field.getType())
                && field.getDeclaringClass() != BackendSuite.class;
    }

    /**
     * The test's class, then the classes of the instances enclosing it: a suite a backend's class
     * holds as a {@code @Nested} class runs inside an instance of the class carrying {@code @Backend}.
     */
    private static List<Class<?>> testClassesInnermostFirst(ExtensionContext context) {
        List<Class<?>> types = new ArrayList<>();
        types.add(context.getRequiredTestClass());
        List<Object> instances =
                context.getTestInstances().map(i -> i.getAllInstances()).orElse(List.of());
        for (int i = instances.size() - 1; i >= 0; i--) {
            if (!types.contains(instances.get(i).getClass())) {
                types.add(instances.get(i).getClass());
            }
        }
        return types;
    }

    /** The factory of {@code annotated}, created once per run of that class (per invocation of a class template). */
    private static BackendFactory created(
            ExtensionContext context, Class<?> annotated, Class<? extends BackendFactory> factory) {
        ExtensionContext owner = context;
        while (!owner.getElement().equals(Optional.of(annotated))
                && owner.getParent().isPresent()) {
            owner = owner.getParent().get();
        }
        if (!owner.getElement().equals(Optional.of(annotated))) {
            owner = context;
        }
        return owner.getStore(NAMESPACE)
                .getOrComputeIfAbsent(annotated, key -> new Created(instantiate(annotated, factory)), Created.class)
                .factory;
    }

    private static BackendFactory instantiate(Class<?> annotated, Class<? extends BackendFactory> factory) {
        if (factory.isInterface() || Modifier.isAbstract(factory.getModifiers())) {
            throw new ExtensionConfigurationException("@Backend(" + factory.getSimpleName() + ".class) on "
                    + annotated.getName() + ": " + factory.getName() + " is abstract: name a concrete class"
                    + " that implements BackendFactory");
        }
        try {
            return ReflectionSupport.newInstance(factory);
        } catch (Exception e) { // checked ones too: newInstance rethrows NoSuchMethodException and the constructor's
            // unchecked
            throw new ExtensionConfigurationException(
                    "@Backend(" + factory.getSimpleName() + ".class) on "
                            + annotated.getName() + ": cannot create " + factory.getName() + " with its no-argument"
                            + " constructor: " + e,
                    e);
        }
    }

    /** A factory the extension created; closed (once) with the context that holds it. */
    @SuppressWarnings({"deprecation", "try"
    }) // CloseableResource: closed also where AutoCloseable values in the store are not
    private static final class Created implements AutoCloseable, ExtensionContext.Store.CloseableResource {
        final BackendFactory factory;
        private final AtomicBoolean closed = new AtomicBoolean();

        Created(BackendFactory factory) {
            this.factory = factory;
        }

        @Override
        public void close() throws Exception {
            if (closed.compareAndSet(false, true)) {
                factory.close();
            }
        }
    }
}
