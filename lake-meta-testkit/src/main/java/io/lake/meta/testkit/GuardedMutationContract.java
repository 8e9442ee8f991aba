package io.lake.meta.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.GuardedMutation;
import io.lake.meta.GuardedResult;
import io.lake.meta.InvalidArgumentException;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaValue;
import io.lake.meta.Mutation;
import io.lake.meta.WriteResult;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Part of {@link MetaStoreSuite}: mutations guarded by the exact bytes of another key. */
@ContractGroup("guarded mutations")
abstract class GuardedMutationContract extends ConditionalWriteContract {

    private final MetaKey guard = key("lease/leader");
    private final MetaKey target = key("tbl/ns1/orders");
    private final MetaValue lease = value("holder=a;epoch=7");
    private final MetaValue staleLease = value("holder=a;epoch=6");

    /** Each test of this group starts here: the guard key holds the current lease. */
    private void installLease() {
        assertThat(store.create(guard, lease).isApplied()).isTrue();
    }

    private GuardedResult guarded(MetaValue expectedGuard, Mutation mutation) {
        return store.applyGuarded(new GuardedMutation(guard, expectedGuard, mutation));
    }

    @Test
    void guardedCreate_withCurrentGuard_appliesAndLeavesGuardAlone() {
        installLease();
        assertThat(guarded(lease, Mutation.create(target, value("v1")))).isEqualTo(GuardedResult.applied());

        assertThat(store.get(target)).contains(value("v1"));
        assertThat(store.get(guard)).contains(lease);
    }

    @Test
    void guardedUpdate_withCurrentGuard_applies() {
        installLease();
        store.create(target, value("v1"));

        GuardedResult result = guarded(lease, Mutation.update(target, value("v1"), value("v2")));

        assertThat(result).isEqualTo(GuardedResult.applied());
        assertThat(result.targetResult()).contains(WriteResult.applied());
        assertThat(store.get(target)).contains(value("v2"));
        assertThat(store.get(guard)).contains(lease);
    }

    @Test
    void guardedDelete_withCurrentGuard_applies() {
        installLease();
        store.create(target, value("v1"));

        assertThat(guarded(lease, Mutation.delete(target, value("v1")))).isEqualTo(GuardedResult.applied());

        assertThat(store.get(target)).isEmpty();
        assertThat(store.get(guard)).contains(lease);
    }

    @Test
    void guardedUpdate_withCurrentGuardButStaleTarget_isTargetConflictWithCurrentValue() {
        installLease();
        store.create(target, value("v2"));

        GuardedResult result = guarded(lease, Mutation.update(target, value("v1"), value("v3")));

        assertThat(result.outcome()).isEqualTo(GuardedResult.Outcome.TARGET_CONFLICT);
        assertThat(result).isEqualTo(GuardedResult.targetConflict(WriteResult.conflict(Optional.of(value("v2")))));
        assertThat(store.get(target)).contains(value("v2"));
    }

    @Test
    void guardedCreate_ofPresentTarget_isTargetConflictWithCurrentValue() {
        installLease();
        store.create(target, value("v1"));

        GuardedResult result = guarded(lease, Mutation.create(target, value("v2")));

        assertThat(result).isEqualTo(GuardedResult.targetConflict(WriteResult.conflict(Optional.of(value("v1")))));
        assertThat(store.get(target)).contains(value("v1"));
    }

    @Test
    void guardedUpdate_ofAbsentTarget_isTargetConflictWithKnownAbsent() {
        installLease();
        GuardedResult result = guarded(lease, Mutation.update(target, value("v1"), value("v2")));

        assertThat(result).isEqualTo(GuardedResult.targetConflict(WriteResult.conflict(Optional.empty())));
        assertThat(store.get(target)).isEmpty();
    }

    @Test
    void guardedDelete_ofAbsentTarget_isTargetConflictWithKnownAbsent() {
        installLease();
        GuardedResult result = guarded(lease, Mutation.delete(target, value("v1")));

        assertThat(result).isEqualTo(GuardedResult.targetConflict(WriteResult.conflict(Optional.empty())));
    }

    @Test
    void staleGuard_withCreateOfAbsentTarget_movesNothing() {
        installLease();
        assertRejectedAndUnchanged(staleLease, Mutation.create(target, value("v2")));
        assertThat(store.get(target)).isEmpty();
    }

    @Test
    void staleGuard_withUpdateWhoseTargetMatches_movesNothing() {
        installLease();
        store.create(target, value("v1"));

        assertRejectedAndUnchanged(staleLease, Mutation.update(target, value("v1"), value("v2")));
    }

    @Test
    void staleGuard_withUpdateWhoseTargetConflicts_isGuardRejectedNotTargetConflict() {
        installLease();
        store.create(target, value("v1"));

        assertRejectedAndUnchanged(staleLease, Mutation.update(target, value("other"), value("v2")));
    }

    @Test
    void staleGuard_withDeleteWhoseTargetMatches_movesNothing() {
        installLease();
        store.create(target, value("v1"));

        assertRejectedAndUnchanged(staleLease, Mutation.delete(target, value("v1")));
    }

    @Test
    void staleGuard_withCreateOfPresentTarget_isGuardRejected() {
        installLease();
        store.create(target, value("v1"));

        assertRejectedAndUnchanged(staleLease, Mutation.create(target, value("v2")));
    }

    @Test
    void guardExpectedBytes_areComparedExactly() {
        installLease();
        store.create(target, value("v1"));

        assertRejectedAndUnchanged(value("holder=a;epoch=7 "), Mutation.delete(target, value("v1")));
        assertRejectedAndUnchanged(value("holder=a;epoch="), Mutation.delete(target, value("v1")));
        assertRejectedAndUnchanged(MetaValue.empty(), Mutation.delete(target, value("v1")));
    }

    @Test
    void missingGuardKey_isGuardRejected_andNothingIsWritten() {
        installLease();
        MetaKey absentGuard = key("lease/nobody");

        GuardedResult result =
                store.applyGuarded(new GuardedMutation(absentGuard, lease, Mutation.create(target, value("v1"))));

        assertThat(result).isEqualTo(GuardedResult.guardRejected());
        assertThat(result.targetResult()).isEmpty();
        assertThat(store.get(target)).isEmpty();
        assertThat(store.get(absentGuard)).isEmpty();
    }

    @Test
    void missingGuardKey_isNotMatchedByAnEmptyExpectedGuard() {
        installLease();
        MetaKey absentGuard = key("lease/nobody");

        GuardedResult result = store.applyGuarded(
                new GuardedMutation(absentGuard, MetaValue.empty(), Mutation.create(target, value("v1"))));

        assertThat(result).isEqualTo(GuardedResult.guardRejected());
        assertThat(store.get(target)).isEmpty();
    }

    @Test
    void emptyGuardValue_matchesAnEmptyExpectedGuard() {
        installLease();
        MetaKey emptyGuard = key("lease/empty");
        store.create(emptyGuard, MetaValue.empty());

        GuardedResult result = store.applyGuarded(
                new GuardedMutation(emptyGuard, MetaValue.empty(), Mutation.create(target, value("v1"))));

        assertThat(result).isEqualTo(GuardedResult.applied());
        assertThat(store.get(target)).contains(value("v1"));
    }

    @Test
    void guardKeyEqualToTargetKey_isInvalidArgument_andNothingIsWritten() {
        installLease();
        store.create(target, value("v1"));
        Map<String, String> before = contents("tbl/");

        assertThatThrownBy(() -> store.applyGuarded(
                        new GuardedMutation(target, value("v1"), Mutation.update(target, value("v1"), value("v2")))))
                .isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(() -> store.applyGuarded(
                        new GuardedMutation(target, value("v1"), Mutation.delete(target, value("v1")))))
                .isInstanceOf(InvalidArgumentException.class);
        assertThatThrownBy(
                        () -> store.applyGuarded(new GuardedMutation(guard, lease, Mutation.create(guard, value("x")))))
                .isInstanceOf(InvalidArgumentException.class);

        assertThat(contents("tbl/")).isEqualTo(before);
        assertThat(store.get(guard)).contains(lease);
    }

    @Test
    void guardAndTarget_mayLieInDifferentFamiliesOrTheSameOne() {
        installLease();
        MetaKey sameFamilyGuard = key("tbl/ns1/_lock");
        store.create(sameFamilyGuard, value("g"));

        assertThat(guarded(lease, Mutation.create(target, value("v1")))).isEqualTo(GuardedResult.applied());
        assertThat(store.applyGuarded(new GuardedMutation(
                        sameFamilyGuard, value("g"), Mutation.update(target, value("v1"), value("v2")))))
                .isEqualTo(GuardedResult.applied());
        assertThat(store.get(target)).contains(value("v2"));
    }

    @Test
    void guardReplaced_staleHolderIsRejected_newHolderApplies() {
        installLease();
        MetaValue next = value("holder=b;epoch=8");
        store.update(guard, lease, next);

        assertThat(guarded(lease, Mutation.create(target, value("from-a")))).isEqualTo(GuardedResult.guardRejected());
        assertThat(store.applyGuarded(new GuardedMutation(guard, next, Mutation.create(target, value("from-b")))))
                .isEqualTo(GuardedResult.applied());
        assertThat(store.get(target)).contains(value("from-b"));
    }

    private void assertRejectedAndUnchanged(MetaValue expectedGuard, Mutation mutation) {
        Optional<MetaValue> targetBefore = store.get(mutation.key());

        GuardedResult result = guarded(expectedGuard, mutation);

        assertThat(result).isEqualTo(GuardedResult.guardRejected());
        assertThat(result.targetResult())
                .as("the target is not evaluated when the guard is rejected")
                .isEmpty();
        assertThat(store.get(guard))
                .as("guard after a rejected guarded mutation")
                .contains(lease);
        assertThat(store.get(mutation.key()))
                .as("target after a rejected guarded mutation")
                .isEqualTo(targetBefore);
    }
}
