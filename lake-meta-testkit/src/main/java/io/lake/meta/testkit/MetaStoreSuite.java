package io.lake.meta.testkit;

/**
 * The MetaStore contract suite, written once. A backend runs it with one line, on the
 * {@link BackendFactory} that runs every suite of the testkit:
 *
 * <pre>{@code
 * @Backend(MyBackend.class)
 * class MyStoreContractTest extends MetaStoreSuite {}
 * }</pre>
 *
 * <p>The factory's {@link BackendFactory#open open} must return a new, empty store on every call:
 * the suite opens one per test and one per generated operation sequence of the model-equivalence
 * properties, and closes each. The store must call the {@linkplain StoreContext#raceHooks() hooks
 * it was opened with} at {@link io.lake.meta.spi.RaceHooks#COMMIT_CHECKED} inside every commit
 * whose preconditions hold, after the preconditions were checked and before the write becomes
 * visible, and must keep any other commit from checking its own preconditions until then. A
 * backend whose commit cannot be paused (a store backed by a server outside the test's process) is
 * declared without {@link Capability#RACE_HOOKS}: the race tests are then reported as skipped with
 * the reason, and the concurrent-writer tests still run.
 *
 * <p>The suite is split into one class per concept, each holding its tests and marked with its
 * {@link ContractGroup}; the classes are inherited along one chain, so every test is a test of the
 * backend's one class (runners count them on it) and {@link ContractDisplayNames} names each
 * {@code group > behaviour}:
 * <ul>
 *   <li>{@code ConditionalWriteContract}: point reads, create/update/delete on exact bytes, the
 *       empty value, concurrent compare-and-set increments;</li>
 *   <li>{@code GuardedMutationContract}: guarded create/update/delete, stale and missing guards,
 *       guard equal to target;</li>
 *   <li>{@code TransactionContract}: multi-key transactions, all or nothing, every failure
 *       reported, duplicate keys, the key and byte limits, guarded mutations equal to their
 *       one-condition transaction;</li>
 *   <li>{@code BatchReadContract}: {@code getAll}, order, absent keys, the key limit;</li>
 *   <li>{@code WatchContract}: {@code watch}: the contents first, then every change with its
 *       latest value, per-key order, only the prefix, listeners that block or throw, closing the
 *       watch and the store;</li>
 *   <li>{@code PageContract}: bounded, resumable pages, family and sibling-prefix isolation,
 *       page cost, limits;</li>
 *   <li>{@code PageTokenContract}: tokens bound to their prefix, resuming it to its end; tampered,
 *       truncated, foreign and garbage tokens refused;</li>
 *   <li>{@code KeyAndValueRulesContract}: every key, prefix and value rule at and just past its
 *       boundary, null arguments;</li>
 *   <li>{@code ClosedStoreContract}: every call after {@code close()}, idempotent close;</li>
 *   <li>{@code RaceContract}: races proven by ordering with {@link PausePoints}, renames (a
 *       two-key transaction) racing writers of either key included;</li>
 *   <li>{@code ModelEquivalenceContract}: random operation sequences against
 *       {@link InMemoryMetaStore};</li>
 *   <li>{@code ConcurrentWriteContract}: writers started together, unordered, whose answers
 *       must agree with one serial order (on every backend, race hooks or not);</li>
 *   <li>{@code KeyFamiliesContract}: the optional {@link io.lake.meta.spi.KeyFamilies} capability
 *       (reported as skipped, with the declared reason, on a backend without it).</li>
 * </ul>
 *
 * <p>A backend that lacks a capability the suite expects by default (conflicts that carry the
 * current value, race hooks, pages that equal the model's, key families) declares it with the
 * reason in {@link BackendFactory#capabilities()}; the suite then expects what the
 * {@link Capability} describes instead. How long the suite waits, and how many sequences it
 * generates, is the factory's {@link BackendFactory#settings() settings}.
 *
 * <p>What the suite expects of a backend beyond the {@link io.lake.meta.MetaStore} javadoc:
 * <ul>
 *   <li>a conflict reports the current value ({@link io.lake.meta.WriteResult#isCurrentKnown()}),
 *       unless declared otherwise ({@link Capability#CONFLICT_REPORTS_CURRENT_VALUE});</li>
 *   <li>null arguments to store methods raise {@link io.lake.meta.InvalidArgumentException};</li>
 *   <li>a page's {@link io.lake.meta.PageCost#itemsEvaluated()} is at most its limit plus one;</li>
 *   <li>a writer competing with a commit held at {@code COMMIT_CHECKED} waits on a Java lock,
 *       monitor, latch or future (the race tests wait for it to park), not in native code;</li>
 *   <li>no page needs to hold entries: a page may be empty while a token follows, and the suite
 *       follows tokens to the end of a prefix wherever it checks what they resume;</li>
 *   <li>by default, pages equal the model's page for page (unsigned-byte key order, full pages
 *       while keys remain), unless declared without {@link Capability#PAGES_MATCH_THE_MODEL};</li>
 *   <li>a watch reports each change within {@link SuiteSettings#watchDeliveryTimeout()} (30 s by
 *       default): a backend that polls is opened with a short poll interval.</li>
 * </ul>
 * @since 0.1.0
 */
public abstract class MetaStoreSuite extends KeyFamiliesContract {

    /** For backends: {@code @Backend(MyBackend.class) class MyStoreContractTest extends MetaStoreSuite {}}. */
    protected MetaStoreSuite() {}
}
