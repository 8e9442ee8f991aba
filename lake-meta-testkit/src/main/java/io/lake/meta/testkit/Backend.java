package io.lake.meta.testkit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Names the backend a suite runs on: {@code @Backend(MyBackend.class) class MyStoreLeaseFencingTest
 * extends LeaseFencingSuite {}}. The factory is created once per annotated class with its
 * no-argument constructor (which may be package-private) and closed after the class; on a class
 * that holds suites as {@code @Nested} classes, every nested suite shares it.
 *
 * @since 0.1.0
 */
@Documented
@Inherited
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface Backend {

    /**
     * The backend's factory class.
     *
     * @return a {@link BackendFactory} with a no-argument constructor
     */
    Class<? extends BackendFactory> value();
}
