package io.lake.meta.testkit;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.Optional;

/**
 * The {@link Capability capabilities} a backend has, each one it lacks with the reason: every
 * capability unless declared otherwise.
 *
 * <pre>{@code
 * public Capabilities capabilities() {
 *     return Capabilities.all()
 *             .without(Capability.RACE_HOOKS, "the commit runs in a server the test cannot pause")
 *             .without(Capability.PAGES_MATCH_THE_MODEL, "pages go shard by shard");
 * }
 * }</pre>
 *
 * <p>Immutable; {@link #without} returns a new value.
 *
 * @since 0.1.0
 */
public final class Capabilities {

    private static final Capabilities ALL = new Capabilities(new EnumMap<>(Capability.class));

    private final Map<Capability, String> missing;

    private Capabilities(EnumMap<Capability, String> missing) {
        this.missing = Collections.unmodifiableMap(missing);
    }

    /** Every capability: what a backend has unless it declares otherwise. */
    public static Capabilities all() {
        return ALL;
    }

    /**
     * These capabilities without {@code capability}, for {@code reason}. The reason is what the
     * reports show where a test is skipped or expects something else, so it says why the backend
     * cannot, not only that it cannot.
     *
     * @throws IllegalArgumentException if {@code capability} is null or already declared missing,
     *     or {@code reason} is null or blank
     */
    public Capabilities without(Capability capability, String reason) {
        if (capability == null) {
            throw new IllegalArgumentException("capability must not be null");
        }
        if (reason == null || reason.isBlank()) {
            throw new IllegalArgumentException("a backend declared without " + capability
                    + " must say why: the reason is what the reports show for the tests it changes");
        }
        if (missing.containsKey(capability)) {
            throw new IllegalArgumentException(
                    capability + " is already declared missing (" + missing.get(capability) + ")");
        }
        EnumMap<Capability, String> next = new EnumMap<>(Capability.class);
        next.putAll(missing);
        next.put(capability, reason.strip());
        return new Capabilities(next);
    }

    /** Whether the backend has {@code capability}. */
    public boolean has(Capability capability) {
        return !missing.containsKey(capability);
    }

    /** Why the backend lacks {@code capability}, or empty when it has it. */
    public Optional<String> reasonWithout(Capability capability) {
        return Optional.ofNullable(missing.get(capability));
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Capabilities that && missing.equals(that.missing);
    }

    @Override
    public int hashCode() {
        return missing.hashCode();
    }

    /** {@code Capabilities[all]} or {@code Capabilities[all without RACE_HOOKS (reason), ...]}. */
    @Override
    public String toString() {
        if (missing.isEmpty()) {
            return "Capabilities[all]";
        }
        StringBuilder s = new StringBuilder("Capabilities[all without ");
        missing.forEach((capability, reason) ->
                s.append(capability).append(" (").append(reason).append("), "));
        s.setLength(s.length() - 2);
        return s.append(']').toString();
    }
}
