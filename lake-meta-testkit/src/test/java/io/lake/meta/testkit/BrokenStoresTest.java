package io.lake.meta.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.GuardedMutation;
import io.lake.meta.GuardedResult;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.Mutation;
import io.lake.meta.Page;
import io.lake.meta.PageRequest;
import io.lake.meta.WriteResult;
import io.lake.meta.spi.RaceHooks;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * The contract suite must catch broken backends: here it runs parts of itself against stores
 * with deliberate bugs and expects them to fail.
 */
class BrokenStoresTest {

    /** A contract instance whose store comes from {@code factory}. */
    private static final class ContractOn extends MetaStoreContract {
        private final Function<RaceHooks, MetaStore> factory;

        ContractOn(Function<RaceHooks, MetaStore> factory) {
            this.factory = factory;
        }

        @Override
        protected MetaStore openStore(RaceHooks hooks) {
            return factory.apply(hooks);
        }
    }

    private ContractOn contract;

    private ContractOn open(Function<RaceHooks, MetaStore> factory) throws Exception {
        contract = new ContractOn(factory);
        contract.openStoreUnderTest();
        return contract;
    }

    @AfterEach
    void close() {
        if (contract != null) {
            contract.closeStoreUnderTest();
        }
    }

    private static void assertContractFails(Executable test, String why) {
        assertThatThrownBy(test::execute).isInstanceOf(AssertionError.class).hasMessageContaining(why);
    }

    // --- a store whose commits interleave: it checks, lets go of its lock, then writes ----------

    /** Checks preconditions under the lock, calls the hook outside it, then writes blindly. */
    private static final class InterleavingStore extends Delegating {
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
        RaceContract.Races races = open(InterleavingStore::new).new Races();

        assertContractFails(races::twoWritersInterleavedInsideACommit_secondConflictsWithTheFirstsValue, "interleave");
    }

    @Test
    void racesCatchAGuardedWriteThatAppliesOnAReplacedGuard() throws Exception {
        RaceContract.Races races = open(InterleavingStore::new).new Races();

        assertContractFails(races::guardedWriteStartedWhileTheGuardReplacementIsHeld_isRejectedAndMovesNothing, "interleave");
    }

    @Test
    void racesCatchACreatorThatOverwritesAPendingCreate() throws Exception {
        RaceContract.Races races = open(InterleavingStore::new).new Races();

        assertContractFails(races::twoCreatorsInterleavedInsideACommit_secondConflictsWithTheFirstsValue, "interleave");
    }

    @Test
    void racesPass_onTheModel() throws Exception {
        RaceContract.Races races = open(InMemoryMetaStore::withHooks).new Races();

        races.twoWritersInterleavedInsideACommit_secondConflictsWithTheFirstsValue();
    }

    // --- stores with small, plausible bugs the property tests must find --------------------------

    /** Delete conflicts forget the current value, as a backend that skips the read might. */
    private static final class ForgetfulDeleteStore extends Delegating {
        ForgetfulDeleteStore() {
            super(InMemoryMetaStore.create());
        }

        @Override
        public WriteResult apply(Mutation m) {
            WriteResult result = super.apply(m);
            return m instanceof Mutation.Delete && result.isConflict() ? WriteResult.conflictWithUnknownCurrent() : result;
        }
    }

    /** A page that exactly fills its limit claims there is nothing more: an off-by-one in the look-ahead. */
    private static final class ShortSightedPagesStore extends Delegating {
        ShortSightedPagesStore() {
            super(InMemoryMetaStore.create());
        }

        @Override
        public Page page(PageRequest request) {
            Page page = super.page(request);
            return page.entries().size() == request.limit() && request.limit() > 1
                    ? new Page(page.entries(), Optional.empty(), page.cost()) : page;
        }
    }

    /** A guarded write with a stale guard still applies when the target's precondition holds. */
    private static final class GuardIgnoringStore extends Delegating {
        GuardIgnoringStore() {
            super(InMemoryMetaStore.create());
        }

        @Override
        public GuardedResult applyGuarded(GuardedMutation m) {
            GuardedResult result = super.applyGuarded(m);
            if (result.outcome() == GuardedResult.Outcome.GUARD_REJECTED && super.get(m.guardKey()).isPresent()) {
                WriteResult target = super.apply(m.target());
                return target.isApplied() ? GuardedResult.applied() : GuardedResult.targetConflict(target);
            }
            return result;
        }
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
        ModelEquivalenceContract.ModelEquivalence property = open(hooks -> new ForgetfulDeleteStore()).new ModelEquivalence();

        Throwable failure = catchFailure(property::randomOperationSequences_answerExactlyLikeTheModel);

        String message = failure.getMessage();
        assertThat(message).contains("Shortest failing script").contains("Seed was");
        assertThat(message).containsPattern("Shortest failing script \\([12] operations on a new store\\)");
        assertThat(message).containsPattern("\\d\\. delete\\(");
        assertThat(message).contains("backend answered conflict (current value unknown)");
    }

    private void assertPropertyFails(java.util.function.Supplier<MetaStore> broken) throws Exception {
        ModelEquivalenceContract.ModelEquivalence property = open(hooks -> broken.get()).new ModelEquivalence();

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

    /** Forwards everything to a delegate; the broken stores override what they get wrong. */
    private abstract static class Delegating implements MetaStore {
        private final MetaStore delegate;

        Delegating(MetaStore delegate) {
            this.delegate = delegate;
        }

        @Override
        public Optional<MetaValue> get(MetaKey key) {
            return delegate.get(key);
        }

        @Override
        public WriteResult apply(Mutation mutation) {
            return delegate.apply(mutation);
        }

        @Override
        public GuardedResult applyGuarded(GuardedMutation mutation) {
            return delegate.applyGuarded(mutation);
        }

        @Override
        public Page page(PageRequest request) {
            return delegate.page(request);
        }

        @Override
        public void close() {
            delegate.close();
        }
    }

}
