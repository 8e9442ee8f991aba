package io.lake.meta.testkit;

import java.lang.reflect.Method;
import java.util.List;
import org.junit.jupiter.api.DisplayNameGenerator;

/**
 * Names the suites' tests for people: the backend's test class, the concept group, the behaviour,
 * as in {@code RocksDbMetaStoreContractTest > conditional writes > update with stale expected
 * bytes conflicts and keeps value}. A test declared in a part of a suite marked
 * {@link ContractGroup} is named {@code group > behaviour} under the backend's class (the JUnit
 * test-interface shape: every test of the suite belongs to the backend's class, so runners count
 * them there); every suite of the testkit has this shape. A {@code @Nested} class (a backend's
 * own grouping of suites) is named after the class enclosing it. Method names are split at underscores and
 * capitals. Reports show these names where the runner uses display names (IDEs, the JUnit
 * console, Surefire with its phrased-name options, as the testing guide shows).
 *
 * @since 0.1.0
 */
public class ContractDisplayNames extends DisplayNameGenerator.Standard {

    /** For JUnit. */
    public ContractDisplayNames() {}

    /** {@inheritDoc} The simple name of the backend's test class. */
    @Override
    public String generateDisplayNameForClass(Class<?> testClass) {
        return testClass.getSimpleName();
    }

    /** {@inheritDoc} The backend's class, then the group in words: {@code MyStoreContractTest > conditional writes}. */
    @Override
    public String generateDisplayNameForNestedClass(List<Class<?>> enclosingInstanceTypes, Class<?> nestedClass) {
        String group = words(nestedClass.getSimpleName());
        return enclosingInstanceTypes.isEmpty()
                ? group
                : enclosingInstanceTypes.get(0).getSimpleName() + " > " + group;
    }

    /**
     * {@inheritDoc} The method name in words, with its parameters when it has any, after its
     * {@link ContractGroup} when the class declaring it has one: {@code conditional writes > update with ...}.
     */
    @Override
    public String generateDisplayNameForMethod(
            List<Class<?>> enclosingInstanceTypes, Class<?> testClass, Method testMethod) {
        String name = words(testMethod.getName());
        String behaviour = testMethod.getParameterCount() == 0
                ? name
                : name
                        + super.generateDisplayNameForMethod(enclosingInstanceTypes, testClass, testMethod)
                                .substring(testMethod.getName().length());
        ContractGroup group = testMethod.getDeclaringClass().getAnnotation(ContractGroup.class);
        return group == null ? behaviour : group.value() + " > " + behaviour;
    }

    /**
     * {@code update_withStaleExpectedBytes_conflicts} → {@code update with stale expected bytes conflicts}:
     * words start at underscores, capitals and digits; a run of capitals stays one acronym
     * ({@code aCAS_onTTL2} → {@code a CAS on TTL 2}), a single capital is lowercased.
     */
    static String words(String identifier) {
        java.util.List<String> words = new java.util.ArrayList<>();
        int n = identifier.length();
        int i = 0;
        while (i < n) {
            char c = identifier.charAt(i);
            if (c == '_' || c == '$') {
                i++;
                continue;
            }
            int end = i + 1;
            if (Character.isDigit(c)) {
                while (end < n && Character.isDigit(identifier.charAt(end))) {
                    end++;
                }
            } else if (Character.isUpperCase(c) && end < n && Character.isUpperCase(identifier.charAt(end))) {
                while (end < n && Character.isUpperCase(identifier.charAt(end))) {
                    end++;
                }
                if (end < n && Character.isLowerCase(identifier.charAt(end))) {
                    end--; // the last capital starts the next word: "AWriter" is "A", "Writer"
                }
            } else {
                while (end < n && Character.isLowerCase(identifier.charAt(end))) {
                    end++;
                }
            }
            String word = identifier.substring(i, end);
            words.add(
                    word.length() > 1 && word.chars().allMatch(Character::isUpperCase)
                            ? word
                            : word.toLowerCase(java.util.Locale.ROOT));
            i = end;
        }
        return String.join(" ", words);
    }
}
