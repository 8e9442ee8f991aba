package io.lake.meta.testkit.maintenance;

/**
 * The paged maintenance suite, written once. A backend runs it with one line, on its
 * {@link io.lake.meta.testkit.BackendFactory}:
 *
 * <pre>{@code
 * @Backend(MyBackend.class)
 * class MyStoreMaintenanceTest extends MaintenanceSuite {}
 * }</pre>
 *
 * <p>The sweeper's locks are {@link InProcessTableLocks}; a test holds the sweeper inside a lock at
 * {@link InProcessTableLocks#LOCKED} to change the registry between the scan and the re-read.
 *
 * <p>Its groups are classes marked {@link io.lake.meta.testkit.ContractGroup} and inherited along
 * one chain, so every test is a method of the backend's one class (runners count and report
 * them there) named {@code Backend > group > behaviour}: {@code paging}, {@code re-read under the lock}, {@code cancellation},
 * {@code tombstones}, {@code actions}.
 *
 * @since 0.1.0
 */
public abstract class MaintenanceSuite extends MaintenanceActionsContract {

    /** For backends: {@code @Backend(MyBackend.class) class MyStoreMaintenanceTest extends MaintenanceSuite {}}. */
    protected MaintenanceSuite() {}
}
