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
 * every commit whose preconditions hold, after the preconditions were checked and before the
 * write becomes visible, and must keep any other commit from checking its own preconditions
 * until then. A test setup that cannot pause the commit (a store backed by a server outside the
 * test's process) declares it: {@link #capabilities()} without {@link ContractCapability#RACE_HOOKS}
 * (or, as before, a reason in {@link #raceHooksUnsupportedReason()}); the race tests are then
 * reported as skipped with the reason, and the concurrent-writer tests still run.
 *
 * <p>The suite is split into one class per concept, each holding its tests and marked with its
 * {@link ContractGroup}; the classes are inherited along one chain, so every test is a test of the
 * one subclass (runners count them on it) and {@link ContractDisplayNames} names each
 * {@code group > behaviour}:
 * <ul>
 *   <li>{@link ConditionalWriteContract}: point reads, create/update/delete on exact bytes, the
 *       empty value, concurrent compare-and-set increments;</li>
 *   <li>{@link GuardedMutationContract}: guarded create/update/delete, stale and missing guards,
 *       guard equal to target;</li>
 *   <li>{@link TransactionContract}: multi-key transactions, all or nothing, every failure
 *       reported, duplicate keys, the key and byte limits, guarded mutations equal to their
 *       one-condition transaction;</li>
 *   <li>{@link BatchReadContract}: {@code getAll}, order, absent keys, the key limit;</li>
 *   <li>{@link WatchContract}: {@code watch}: the contents first, then every change with its
 *       latest value, per-key order, only the prefix, listeners that block or throw, closing the
 *       watch and the store;</li>
 *   <li>{@link PageContract}: bounded, resumable pages, family and sibling-prefix isolation,
 *       page cost, limits;</li>
 *   <li>{@link PageTokenContract}: tokens bound to their prefix, resuming it to its end; tampered,
 *       truncated, foreign and garbage tokens refused;</li>
 *   <li>{@link KeyAndValueRulesContract}: every key, prefix and value rule at and just past its
 *       boundary, null arguments;</li>
 *   <li>{@link ClosedStoreContract}: every call after {@code close()}, idempotent close;</li>
 *   <li>{@link RaceContract}: races proven by ordering with {@link PausePoints}, renames (a
 *       two-key transaction) racing writers of either key included;</li>
 *   <li>{@link ModelEquivalenceContract}: random operation sequences against
 *       {@link InMemoryMetaStore};</li>
 *   <li>{@link ConcurrentWriteContract}: writers started together, unordered, whose answers
 *       must agree with one serial order (on every backend, race hooks or not);</li>
 *   <li>{@link KeyFamiliesContract}: the optional {@link io.lake.meta.spi.KeyFamilies} capability
 *       (reported as skipped, with the reason, on a store without it).</li>
 * </ul>
 *
 * <p>A backend that lacks a capability the suite expects by default (conflicts that carry the
 * current value, race hooks) declares it in {@link #capabilities()}; the suite then expects what
 * {@link ContractCapability} describes instead. How long the race tests wait is
 * {@link #raceHookTimeout()} (30 s, or the {@value #RACE_HOOK_TIMEOUT_PROPERTY} system property).
 *
 * <p>What the suite expects of a backend beyond the {@link io.lake.meta.MetaStore} javadoc:
 * <ul>
 *   <li>a conflict reports the current value ({@link io.lake.meta.WriteResult#isCurrentKnown()}),
 *       unless declared otherwise ({@link ContractCapability#CONFLICT_REPORTS_CURRENT_VALUE});</li>
 *   <li>null arguments to store methods raise {@link io.lake.meta.InvalidArgumentException};</li>
 *   <li>a page's {@link io.lake.meta.PageCost#itemsEvaluated()} is at most its limit plus one;</li>
 *   <li>a writer competing with a commit held at {@code COMMIT_CHECKED} waits on a Java lock,
 *       monitor, latch or future (the race tests wait for it to park), not in native code;</li>
 *   <li>no page needs to hold entries: a page may be empty while a token follows, and the suite
 *       follows tokens to the end of a prefix wherever it checks what they resume;</li>
 *   <li>by default, pages equal the model's page for page (unsigned-byte key order, full pages
 *       while keys remain): override {@link #pagesMatchTheModelExactly()} when the layout pages
 *       differently;</li>
 *   <li>a watch reports each change within {@link #watchDeliveryTimeout()} (30 s by default): a
 *       backend that polls is opened with a short poll interval.</li>
 * </ul>
 */
public abstract class MetaStoreContract extends KeyFamiliesContract {
}
