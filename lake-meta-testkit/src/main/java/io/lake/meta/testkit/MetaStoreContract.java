package io.lake.meta.testkit;

/**
 * The MetaStore contract suite, written once. A backend runs it by extending this class with a
 * small factory:
 *
 * <pre>{@code
 * class MyStoreContractTest extends MetaStoreContract {
 *     protected MetaStore openStore(RaceHooks hooks) {
 *         return MyStore.builder().raceHooks(hooks).build();
 *     }
 * }
 * }</pre>
 *
 * <p>{@link #openStore} must return a new, empty store on every call: the suite opens one per
 * test and one per generated operation sequence of the model-equivalence properties, and closes
 * each. The store must call its hooks at {@link io.lake.meta.spi.RaceHooks#COMMIT_CHECKED} inside
 * every commit, after the preconditions were checked and before the write becomes visible, and
 * must keep any other commit from checking its own preconditions until then.
 *
 * <p>The suite is split into one class per concept, each holding one {@code @Nested} group; the
 * groups are inherited, so the one subclass runs them all:
 * <ul>
 *   <li>{@link ConditionalWriteContract}: point reads, create/update/delete on exact bytes,
 *       concurrent compare-and-set;</li>
 * </ul>
 */
public abstract class MetaStoreContract extends ConditionalWriteContract {
}
