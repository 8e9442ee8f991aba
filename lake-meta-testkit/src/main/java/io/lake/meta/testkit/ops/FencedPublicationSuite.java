package io.lake.meta.testkit.ops;

/**
 * Every write of the three recipes (table registry, maintenance sweep, operation journal) is a
 * fenced publication: driven through a {@link io.lake.meta.fenced.FencedMetaStore} over a store
 * that records what reaches it, each write reaches the backend as a guarded mutation, or a
 * transaction, conditioned on the lease's current bytes and never as a plain write; after a
 * takeover the old leader's writes move nothing. A backend runs it with one line, on its
 * {@link io.lake.meta.testkit.BackendFactory}, like the other recipe suites:
 *
 * <pre>{@code
 * @Backend(MyBackend.class)
 * class MyStoreFencedPublicationTest extends FencedPublicationSuite {}
 * }</pre>
 *
 * <p>Its groups are classes marked {@link io.lake.meta.testkit.ContractGroup} and inherited along
 * one chain, so every test is a method of the backend's one class (runners count and report
 * them there) named {@code Backend > group > behaviour}: {@code every recipe write}.
 *
 * @since 0.1.0
 */
public abstract class FencedPublicationSuite extends PublicationEveryRecipeWriteContract {

    /** For backends: {@code @Backend(MyBackend.class) class MyStoreFencedPublicationTest extends FencedPublicationSuite {}}. */
    protected FencedPublicationSuite() {}
}
