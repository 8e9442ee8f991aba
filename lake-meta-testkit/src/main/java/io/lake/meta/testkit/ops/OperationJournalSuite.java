package io.lake.meta.testkit.ops;

import io.lake.meta.testkit.lease.InFlightHooks;

/**
 * The operation journal suite, written once. A backend runs it with one line, on its
 * {@link io.lake.meta.testkit.BackendFactory}:
 *
 * <pre>{@code
 * @Backend(MyBackend.class)
 * class MyStoreOperationJournalTest extends OperationJournalSuite {}
 * }</pre>
 *
 * <p>Every journal writes through a fenced store over its leader's election. Races are ordered by
 * holding one caller's request in flight ({@link InFlightHooks}); time is manual.
 *
 * <p>Its groups are classes marked {@link io.lake.meta.testkit.ContractGroup} and inherited along
 * one chain, so every test is a method of the backend's one class (runners count and report
 * them there) named {@code Backend > group > behaviour}: {@code begin and replay}, {@code races}, {@code recovery}, {@code lost answers},
 * {@code garbage collection}.
 *
 * @since 0.1.0
 */
public abstract class OperationJournalSuite extends JournalGarbageCollectionContract {

    /** For backends: {@code @Backend(MyBackend.class) class MyStoreOperationJournalTest extends OperationJournalSuite {}}. */
    protected OperationJournalSuite() {}
}
