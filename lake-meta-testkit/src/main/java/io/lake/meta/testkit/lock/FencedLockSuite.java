package io.lake.meta.testkit.lock;

/**
 * The fenced-lock suite, written once. A backend runs it with one line, on its
 * {@link io.lake.meta.testkit.BackendFactory}:
 *
 * <pre>{@code
 * @Backend(MyBackend.class)
 * class MyStoreFencedLockTest extends FencedLockSuite {}
 * }</pre>
 *
 * <p>Time is manual (a shared {@link io.lake.meta.testkit.lease.ManualClock},
 * one {@link io.lake.meta.testkit.lease.ManualTicker} and {@link ManualScheduler} per node), and
 * races are ordered with pause points, never sleeps.
 *
 * <p>Its groups are classes marked {@link io.lake.meta.testkit.ContractGroup} and inherited along
 * one chain, so every test is a method of the backend's one class (runners count and report
 * them there) named {@code Backend > group > behaviour}: {@code candidate rounds} (the
 * renewal-only round the lock renews with), {@code acquiring},
 * {@code racing}, {@code lost answers}, {@code epochs}, {@code fenced view}, {@code renewal and loss},
 * {@code many resources}, {@code lifecycle}.
 *
 * @since 0.1.0
 */
public abstract class FencedLockSuite extends LockLifecycleContract {

    /** For backends: {@code @Backend(MyBackend.class) class MyStoreFencedLockTest extends FencedLockSuite {}}. */
    protected FencedLockSuite() {}
}
