package io.lake.meta.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.Entry;
import io.lake.meta.GuardedMutation;
import io.lake.meta.GuardedResult;
import io.lake.meta.Limits;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.Mutation;
import io.lake.meta.Page;
import io.lake.meta.PageCost;
import io.lake.meta.PageRequest;
import io.lake.meta.WriteResult;
import io.lake.meta.spi.ForwardingMetaStore;
import io.lake.meta.spi.RaceHooks;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.opentest4j.TestAbortedException;

/**
 * The contract suite must catch broken backends: here it runs parts of itself against stores
 * with deliberate bugs and expects them to fail.
 */
class BrokenStoresTest {

    private ContractByHand contract;

    private ContractByHand open(Function<RaceHooks, MetaStore> factory) throws Exception {
        contract = ContractByHand.on(factory);
        return contract;
    }

    @AfterEach
    void close() throws Exception {
        if (contract != null) {
            contract.close();
            contract = null;
        }
    }

    private static void assertContractFails(Executable test, String why) {
        assertThatThrownBy(test::execute).isInstanceOf(AssertionError.class).hasMessageContaining(why);
    }

    // --- a store whose commits interleave: it checks, lets go of its lock, then writes ----------

    /** Checks preconditions under the lock, calls the hook outside it, then writes blindly. */
    private static final class InterleavingStore extends ForwardingMetaStore {
        private final Map<MetaKey, MetaValue> data = new HashMap<>();
        private final RaceHooks hooks;

        InterleavingStore(RaceHooks hooks) {
            super(InMemoryMetaStore.create());
            this.hooks = hooks;
        }

        @Override
        public synchronized Optional<MetaValue> get(MetaKey key) {
            return Optional.ofNullable(data.get(key));
        }

        @Override
        public WriteResult apply(Mutation m) {
            synchronized (this) {
                Optional<MetaValue> current = get(m.key());
                if (!m.preconditionHolds(current)) {
                    return WriteResult.conflict(current);
                }
            }
            hooks.reached(RaceHooks.COMMIT_CHECKED);
            write(m);
            return WriteResult.applied();
        }

        @Override
        public GuardedResult applyGuarded(GuardedMutation m) {
            synchronized (this) {
                if (!get(m.guardKey()).equals(Optional.of(m.expectedGuard()))) {
                    return GuardedResult.guardRejected();
                }
                Optional<MetaValue> current = get(m.target().key());
                if (!m.target().preconditionHolds(current)) {
                    return GuardedResult.targetConflict(WriteResult.conflict(current));
                }
            }
            hooks.reached(RaceHooks.COMMIT_CHECKED);
            write(m.target());
            return GuardedResult.applied();
        }

        private synchronized void write(Mutation m) {
            if (m.newValue().isPresent()) {
                data.put(m.key(), m.newValue().get());
            } else {
                data.remove(m.key());
            }
        }
    }

    @Test
    void racesCatchAStoreWhoseCommitsInterleave() throws Exception {
        var races = open(InterleavingStore::new);

        assertContractFails(races::twoWritersInterleavedInsideACommit_secondConflictsWithTheFirstsValue, "interleave");
    }

    @Test
    void racesCatchAGuardedWriteThatAppliesOnAReplacedGuard() throws Exception {
        var races = open(InterleavingStore::new);

        assertContractFails(
                races::guardedWriteStartedWhileTheGuardReplacementIsHeld_isRejectedAndMovesNothing, "interleave");
    }

    @Test
    void racesCatchACreatorThatOverwritesAPendingCreate() throws Exception {
        var races = open(InterleavingStore::new);

        assertContractFails(races::twoCreatorsInterleavedInsideACommit_secondConflictsWithTheFirstsValue, "interleave");
    }

    @Test
    void racesPass_onTheModel() throws Exception {
        var races = open(InMemoryMetaStore::withHooks);

        races.twoWritersInterleavedInsideACommit_secondConflictsWithTheFirstsValue();
    }

    // --- a store whose test declares that it cannot pause --------------------------------------

    @Test
    void racesAreSkippedWithTheReason_onlyWhenTheBackendDeclaresOne() throws Exception {
        contract = ContractByHand.on(ContractByHand.backend(
                InterleavingStore::new,
                Capabilities.all().without(Capability.RACE_HOOKS, "the commit runs in a remote server"),
                SuiteSettings.defaults()));

        assertThatThrownBy(contract::twoWritersInterleavedInsideACommit_secondConflictsWithTheFirstsValue)
                .isInstanceOf(TestAbortedException.class)
                .hasMessageContaining("cannot honour RaceHooks.COMMIT_CHECKED")
                .hasMessageContaining("remote server");
        close();

        // without a declaration the same broken store is raced, and caught
        var raced = open(InterleavingStore::new);
        assertContractFails(raced::twoWritersInterleavedInsideACommit_secondConflictsWithTheFirstsValue, "interleave");
    }

    @Test
    void aBlankReasonToSkipTheRaces_isRefused() {
        assertThatThrownBy(() -> Capabilities.all().without(Capability.RACE_HOOKS, " "))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("must say why");
    }

    // --- stores whose tokens do not resume what is left -----------------------------------------

    /** Checks a continuation token, then answers that the prefix has ended: the rest is never read. */
    private static final class DeadEndTokenStore extends ForwardingMetaStore {
        DeadEndTokenStore() {
            super(InMemoryMetaStore.create());
        }

        @Override
        public Page page(PageRequest request) {
            Page page = super.page(request);
            return request.token().isPresent() ? new Page(List.of(), Optional.empty(), PageCost.items(0)) : page;
        }
    }

    /** Loses the first entry of every page after a token, as an off-by-one in the resume position would. */
    private static final class SkipOnResumeStore extends ForwardingMetaStore {
        SkipOnResumeStore() {
            super(InMemoryMetaStore.create());
        }

        @Override
        public Page page(PageRequest request) {
            Page page = super.page(request);
            return request.token().isPresent() && !page.entries().isEmpty()
                    ? new Page(page.entries().subList(1, page.entries().size()), page.nextToken(), page.cost())
                    : page;
        }
    }

    private ContractByHand pageTokensOn(java.util.function.Supplier<MetaStore> broken) throws Exception {
        return open(hooks -> broken.get());
    }

    @Test
    void pageTokensCatchATokenThatLeadsNowhere() throws Exception {
        assertContractFails(pageTokensOn(DeadEndTokenStore::new)::token_resumesTheSamePrefix, "exactly the keys");
        close();
        assertContractFails(
                pageTokensOn(DeadEndTokenStore::new)::garbageTokens_areRejected, "the genuine token still works");
    }

    @Test
    void pageTokensCatchATokenThatLosesAKey() throws Exception {
        // the page right after the token still holds an entry: only following the token to the end shows the loss
        assertContractFails(pageTokensOn(SkipOnResumeStore::new)::token_resumesTheSamePrefix, "exactly the keys");
        close();
        assertContractFails(
                pageTokensOn(SkipOnResumeStore::new)::tamperedToken_isRejected_atEveryCharacter,
                "the genuine token still works");
    }

    // --- stores with small, plausible bugs the property tests must find --------------------------

    /** Delete conflicts forget the current value, as a backend that skips the read might. */
    private static final class ForgetfulDeleteStore extends ForwardingMetaStore {
        ForgetfulDeleteStore() {
            super(InMemoryMetaStore.create());
        }

        @Override
        public WriteResult apply(Mutation m) {
            WriteResult result = super.apply(m);
            return m instanceof Mutation.Delete && result.isConflict()
                    ? WriteResult.conflictWithUnknownCurrent()
                    : result;
        }
    }

    /** A page that exactly fills its limit claims there is nothing more: an off-by-one in the look-ahead. */
    private static final class ShortSightedPagesStore extends ForwardingMetaStore {
        ShortSightedPagesStore() {
            super(InMemoryMetaStore.create());
        }

        @Override
        public Page page(PageRequest request) {
            Page page = super.page(request);
            return page.entries().size() == request.limit() && request.limit() > 1
                    ? new Page(page.entries(), Optional.empty(), page.cost())
                    : page;
        }
    }

    /** A guarded write with a stale guard still applies when the target's precondition holds. */
    private static final class GuardIgnoringStore extends ForwardingMetaStore {
        GuardIgnoringStore() {
            super(InMemoryMetaStore.create());
        }

        @Override
        public GuardedResult applyGuarded(GuardedMutation m) {
            GuardedResult result = super.applyGuarded(m);
            if (result.outcome() == GuardedResult.Outcome.GUARD_REJECTED
                    && super.get(m.guardKey()).isPresent()) {
                WriteResult target = super.apply(m.target());
                return target.isApplied() ? GuardedResult.applied() : GuardedResult.targetConflict(target);
            }
            return result;
        }
    }

    /**
     * Pages by position instead of by key: the token holds how many entries came before. Its pages
     * equal the model's while nothing is written between them.
     */
    private static final class OffsetPagingStore extends ForwardingMetaStore {
        OffsetPagingStore() {
            super(InMemoryMetaStore.create());
        }

        @Override
        public Page page(PageRequest request) {
            int offset = request.token().map(Integer::parseInt).orElse(0);
            List<Entry> all = super.page(PageRequest.first(request.prefix(), Limits.MAX_PAGE_LIMIT))
                    .entries();
            int end = Math.min(all.size(), offset + request.limit());
            List<Entry> entries = all.subList(Math.min(offset, end), end);
            boolean more = end < all.size();
            return new Page(
                    entries,
                    more ? Optional.of(Integer.toString(end)) : Optional.empty(),
                    PageCost.items(entries.size() + (more ? 1 : 0)));
        }
    }

    @Test
    void pagesCatchAStoreThatPagesByPosition_whenKeysAreDeletedBetweenPages() throws Exception {
        // the page test that writes between pages only adds keys after the cursor: it passes
        open(hooks -> new OffsetPagingStore()).token_staysValidAcrossWrites_andReturnsNoKeyTwice();
        close();
        var pages = open(hooks -> new OffsetPagingStore());

        assertContractFails(pages::keysDeletedBetweenPages_hideNoKeyThatExistedThroughout, "existed throughout");
    }

    @Test
    void pagesCatchAStoreThatPagesByPosition_whenKeysAreCreatedBetweenPages() throws Exception {
        var pages = open(hooks -> new OffsetPagingStore());

        assertContractFails(pages::keysWrittenBetweenPages_neverAppearTwice, "no key twice");
    }

    @Test
    void modelEquivalenceCatches_conflictsWithoutTheCurrentValue() throws Exception {
        assertPropertyFails(ForgetfulDeleteStore::new);
    }

    @Test
    void modelEquivalenceCatches_aMissingTokenAfterAFullPage() throws Exception {
        assertPropertyFails(ShortSightedPagesStore::new);
    }

    @Test
    void modelEquivalenceCatches_aGuardThatIsNotEnforced() throws Exception {
        assertPropertyFails(GuardIgnoringStore::new);
    }

    @Test
    void modelEquivalence_shrinksToAShortReadableScript() throws Exception {
        var property = open(hooks -> new ForgetfulDeleteStore());

        Throwable failure = catchFailure(property::randomOperationSequences_answerExactlyLikeTheModel);

        String message = failure.getMessage();
        assertThat(message).contains("Shortest failing script").contains("Seed was");
        assertThat(message).containsPattern("Shortest failing script \\([12] operations on a new store\\)");
        assertThat(message).containsPattern("\\d\\. delete\\(");
        // a conflict without its current value, from a backend that did not declare it may answer so
        assertThat(message)
                .contains("conflict without the key's current value")
                .contains("Capability.CONFLICT_REPORTS_CURRENT_VALUE");
    }

    /** Pages half as full as asked (as a backend that pages shard by shard may): allowed, but not the model's pages. */
    private static final class HalfPagesStore extends ForwardingMetaStore {
        HalfPagesStore(MetaStore delegate) {
            super(delegate);
        }

        @Override
        public Page page(PageRequest request) {
            if (request.limit() < 2) {
                return super.page(request);
            }
            Optional<String> token = request.token();
            return super.page(
                    token.isPresent()
                            ? PageRequest.after(request.prefix(), token.get(), request.limit() / 2)
                            : PageRequest.first(request.prefix(), request.limit() / 2));
        }
    }

    @Test
    void modelEquivalence_pagesUnlikeTheModels_nameTheCapability_inABoundedMessage() throws Exception {
        var property = open(hooks -> new HalfPagesStore(InMemoryMetaStore.withHooks(hooks)));

        Throwable failure = catchFailure(property::randomOperationSequences_answerExactlyLikeTheModel);

        assertThat(failure.getMessage())
                .contains("Shortest failing script")
                .contains("Seed was")
                .contains("Capability.PAGES_MATCH_THE_MODEL")
                .hasSizeLessThan(4_000);
    }

    private void assertPropertyFails(java.util.function.Supplier<MetaStore> broken) throws Exception {
        var property = open(hooks -> broken.get());

        assertContractFails(property::randomOperationSequences_answerExactlyLikeTheModel, "Shortest failing script");
    }

    private static Throwable catchFailure(Executable executable) {
        try {
            executable.execute();
        } catch (Throwable t) {
            return t;
        }
        throw new AssertionError("expected the property to fail");
    }
}
