package io.lake.meta.testkit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The concept a part of a contract suite checks, in words ({@code "conditional writes"}).
 * {@link ContractDisplayNames} puts it between the backend's test class and the behaviour, so the
 * tests of one backend class still read grouped by concept.
 *
 * @since 0.1.0
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface ContractGroup {

    /**
     * The concept in words, lower case.
     *
     * @return the group's name, as reports show it
     */
    String value();
}
