package io.lake.meta.testkit.counter;

/**
 * The counter suite, written once. A backend runs it with one line, on its
 * {@link io.lake.meta.testkit.BackendFactory}:
 *
 * <pre>{@code
 * @Backend(MyBackend.class)
 * class MyStoreCounterTest extends CounterSuite {}
 * }</pre>
 *
 * <p>Races are ordered with pause points and store decorators, never sleeps.
 *
 * <p>Its groups are classes marked {@link io.lake.meta.testkit.ContractGroup} and inherited along
 * one chain, so every test is a method of the backend's one class (runners count and report
 * them there) named {@code Backend > group > behaviour}: {@code values}, {@code errors}, {@code contention}, {@code lost answers}.
 *
 * @since 0.1.0
 */
public abstract class CounterSuite extends CounterLostAnswersContract {

    /** For backends: {@code @Backend(MyBackend.class) class MyStoreCounterTest extends CounterSuite {}}. */
    protected CounterSuite() {}
}
