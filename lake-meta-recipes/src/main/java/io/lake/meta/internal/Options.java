package io.lake.meta.internal;

import org.jspecify.annotations.Nullable;

/**
 * The rule the lease builders (election, candidate, lock, table locks) and the counter's keep for
 * their options: each is set at most once (a second call is a configuration mistake,
 * {@link IllegalStateException}), never to null ({@link io.lake.meta.InvalidArgumentException}),
 * and a required one is set before {@code build()} ({@link IllegalStateException}). The journal's,
 * the sweeper's and the copy's builders take the last value set, as they always have.
 *
 * @since 0.1.0
 */
public final class Options {

    private Options() {}

    /**
     * Checks that option {@code name}, holding {@code current}, may take {@code value}.
     *
     * @return {@code value}, to be stored
     * @throws IllegalStateException if {@code current} is already set
     * @throws io.lake.meta.InvalidArgumentException if {@code value} is null
     */
    public static <T> T setOnce(@Nullable T current, @Nullable T value, String name) {
        if (current != null) {
            throw new IllegalStateException(name + " was already set");
        }
        return Checks.notNull(value, name);
    }

    /**
     * Checks that the required option {@code name} was set.
     *
     * @return {@code value}
     * @throws IllegalStateException if the required option {@code name} was not set
     */
    public static <T> T required(@Nullable T value, String name) {
        if (value == null) {
            throw new IllegalStateException(name + " is required: call " + name + "(...) before build()");
        }
        return value;
    }
}
