package io.lake.meta.maintenance;

import io.lake.meta.internal.Checks;
import io.lake.meta.registry.TableSpec;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * What a {@link TableMaintainer} asks the sweeper to write back to a table's registration. Immutable.
 *
 * @since 0.1.0
 */
public final class MaintenanceAction {

    private static final MaintenanceAction NONE = new MaintenanceAction(null);

    private final @Nullable TableSpec newSpec;

    private MaintenanceAction(@Nullable TableSpec newSpec) {
        this.newSpec = newSpec;
    }

    /** Nothing to write. */
    public static MaintenanceAction none() {
        return NONE;
    }

    /** Replace the registration's spec (such as a property recording the last compaction): generation + 1. */
    public static MaintenanceAction updateSpec(TableSpec spec) {
        return new MaintenanceAction(Checks.notNull(spec, "spec"));
    }

    /** The spec to write, if any. */
    public Optional<TableSpec> newSpec() {
        return Optional.ofNullable(newSpec);
    }

    @Override
    public boolean equals(@Nullable Object o) {
        return o instanceof MaintenanceAction && Objects.equals(((MaintenanceAction) o).newSpec, newSpec);
    }

    @Override
    public int hashCode() {
        return Objects.hashCode(newSpec);
    }

    @Override
    public String toString() {
        return newSpec == null ? "MaintenanceAction[none]" : "MaintenanceAction[update " + newSpec + "]";
    }
}
