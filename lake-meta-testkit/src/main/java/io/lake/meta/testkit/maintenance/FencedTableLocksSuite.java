package io.lake.meta.testkit.maintenance;

import io.lake.meta.maintenance.FencedTableLocks;
import io.lake.meta.testkit.lock.ManualScheduler;

/**
 * The suite of {@link FencedTableLocks}, the sweeper's lock provider for many processes, written
 * once. A backend runs it with one line, on its {@link io.lake.meta.testkit.BackendFactory}:
 *
 * <pre>{@code
 * @Backend(MyBackend.class)
 * class MyStoreFencedTableLocksTest extends FencedTableLocksSuite {}
 * }</pre>
 *
 * <p>Two sweeper processes, node-a and node-b, share the store and the wall clock; each has its own
 * ticker and a {@link ManualScheduler} for its locks' renewals, so a process is "paused" simply by
 * not letting its time pass. A sweeper whose lock was taken over is stopped by the store's check
 * of the lock record's bytes alone: its own clock still says it holds the lock.
 *
 * <p>Its groups are classes marked {@link io.lake.meta.testkit.ContractGroup} and inherited along
 * one chain, so every test is a method of the backend's one class (runners count and report
 * them there) named {@code Backend > group > behaviour}: {@code under the lock}, {@code lost lock}.
 *
 * @since 0.1.0
 */
public abstract class FencedTableLocksSuite extends TableLocksLostLockContract {

    /** For backends: {@code @Backend(MyBackend.class) class MyStoreFencedTableLocksTest extends FencedTableLocksSuite {}}. */
    protected FencedTableLocksSuite() {}
}
