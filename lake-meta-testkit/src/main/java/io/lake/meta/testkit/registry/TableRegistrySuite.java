package io.lake.meta.testkit.registry;

import io.lake.meta.testkit.lease.InFlightHooks;

/**
 * The table registry suite, written once. A backend runs it with one line, on its
 * {@link io.lake.meta.testkit.BackendFactory}:
 *
 * <pre>{@code
 * @Backend(MyBackend.class)
 * class MyStoreTableRegistryTest extends TableRegistrySuite {}
 * }</pre>
 *
 * <p>Races are ordered by holding one writer's request in flight ({@link InFlightHooks}), never by sleeping.
 *
 * <p>Its groups are classes marked {@link io.lake.meta.testkit.ContractGroup} and inherited along
 * one chain, so every test is a method of the backend's one class (runners count and report
 * them there) named {@code Backend > group > behaviour}: {@code registering}, {@code updating}, {@code dropping}, {@code paging}.
 *
 * @since 0.1.0
 */
public abstract class TableRegistrySuite extends RegistryPagingContract {

    /** For backends: {@code @Backend(MyBackend.class) class MyStoreTableRegistryTest extends TableRegistrySuite {}}. */
    protected TableRegistrySuite() {}
}
