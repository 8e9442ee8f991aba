package io.lake.meta.registry;

import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The answer to a registry write: applied, or a conflict because the key no longer held what the
 * write expected. Either way {@link #registration()} says what the key holds as far as this call
 * knows: the registration written (empty after a tombstone was deleted), or on a conflict the
 * current registration (empty when the key is absent).
 *
 * @since 0.1.0
 */
public final class RegistryWriteResult {

    private final boolean applied;
    private final @Nullable TableRegistration registration;

    private RegistryWriteResult(boolean applied, @Nullable TableRegistration registration) {
        this.applied = applied;
        this.registration = registration;
    }

    static RegistryWriteResult applied(Optional<TableRegistration> written) {
        return new RegistryWriteResult(true, written.orElse(null));
    }

    static RegistryWriteResult conflict(Optional<TableRegistration> current) {
        return new RegistryWriteResult(false, current.orElse(null));
    }

    /** Whether the write applied. */
    public boolean isApplied() {
        return applied;
    }

    /** Whether the registration had moved on: nothing was written. */
    public boolean isConflict() {
        return !applied;
    }

    /** Applied: the registration written (empty after a delete). Conflict: the current one (empty = absent). */
    public Optional<TableRegistration> registration() {
        return Optional.ofNullable(registration);
    }

    @Override
    public boolean equals(@Nullable Object o) {
        return o instanceof RegistryWriteResult
                && ((RegistryWriteResult) o).applied == applied
                && Objects.equals(((RegistryWriteResult) o).registration, registration);
    }

    @Override
    public int hashCode() {
        return Objects.hash(applied, registration);
    }

    @Override
    public String toString() {
        return (applied ? "applied " : "conflict, current ") + (registration == null ? "(absent)" : registration);
    }
}
