package io.lake.meta.testkit.maintenance;

import io.lake.meta.maintenance.MaintenanceAction;
import io.lake.meta.maintenance.TableMaintainer;
import io.lake.meta.registry.TableRegistration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * A {@link TableMaintainer} that records what it was handed and answers with a configurable
 * action (none by default). Thread-safe.
 *
 * @since 0.1.0
 */
public final class RecordingMaintainer implements TableMaintainer {

    private final List<TableRegistration> maintained = new CopyOnWriteArrayList<>();
    private final List<TableRegistration> cleanedUp = new CopyOnWriteArrayList<>();
    private volatile Function<TableRegistration, MaintenanceAction> action = r -> MaintenanceAction.none();

    /** Answers every later {@link #maintain} with {@code action}. */
    public RecordingMaintainer answering(Function<TableRegistration, MaintenanceAction> action) {
        this.action = action;
        return this;
    }

    @Override
    public MaintenanceAction maintain(TableRegistration table) {
        maintained.add(table);
        return action.apply(table);
    }

    @Override
    public void cleanUp(TableRegistration tombstone) {
        cleanedUp.add(tombstone);
    }

    /** Every live registration handed to {@link #maintain}, in order. */
    public List<TableRegistration> maintained() {
        return List.copyOf(maintained);
    }

    /** Every tombstone handed to {@link #cleanUp}, in order. */
    public List<TableRegistration> cleanedUp() {
        return List.copyOf(cleanedUp);
    }
}
