package io.lake.meta.testkit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.lake.meta.GuardedMutation;
import io.lake.meta.GuardedResult;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaValue;
import io.lake.meta.Mutation;
import io.lake.meta.Transaction;
import io.lake.meta.TransactionFailure;
import io.lake.meta.TransactionResult;
import io.lake.meta.WriteResult;
import io.lake.meta.spi.RaceHooks;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Part of {@link MetaStoreSuite}: races proven by ordering, with {@link PausePoints}.
 *
 * <p>Each test holds one commit at {@link RaceHooks#COMMIT_CHECKED} (its preconditions checked,
 * its write not yet visible), starts a competing operation, waits until the competitor has
 * either finished or parked, and only then releases the held commit. A store that serializes
 * commits has parked the competitor; a store that lets commits interleave has let it finish,
 * which the tests report. The held thread may be a committer thread of the store rather than the
 * caller's: the tests never assume which.
 *
 * <p>A backend that cannot honour the hook (its commit runs in a server the test cannot pause,
 * such as a remote DynamoDB endpoint) is declared without {@link Capability#RACE_HOOKS}: these
 * tests are then skipped with the declared reason, and only then.
 */
@ContractGroup("races")
abstract class RaceContract extends ClosedStoreContract {

    /** Each race test starts here: skipped, with the reason, when the backend was declared unable to hold a commit; failed at once when an earlier race test on the backend found the hook missing. */
    void skipWhenTheStoreCannotPause() {
        Optional<String> reason = capabilities().reasonWithout(Capability.RACE_HOOKS);
        Assumptions.assumeTrue(
                reason.isEmpty(),
                () -> "declared without Capability.RACE_HOOKS (" + reason.orElse("")
                        + "): the store under test cannot honour RaceHooks.COMMIT_CHECKED, so no race is held there; the"
                        + " concurrent-writer tests check the outcomes of unordered races instead");
        String missing = MissingRaceHooks.seenIn(backend());
        if (missing != null) {
            fail("not waiting again: " + missing);
        }
    }

    /** Starts {@code call} on its own thread, with this suite's {@link #raceHookTimeout()} as its safety net. */
    private <T> Racer<T> race(String name, java.util.concurrent.Callable<T> call) {
        return Racer.start(name, call, raceHookTimeout());
    }

    /**
     * Waits until a commit is held at {@code pause}; when none arrives, fails with what the
     * backend must do, and makes the backend's other race tests fail at once rather than wait too.
     */
    private void awaitHeld(PausePoints.Pause pause) {
        try {
            pause.awaitArrival();
        } catch (AssertionError e) {
            throw MissingRaceHooks.record(backend(), e);
        }
    }

    private final MetaKey k = key("tbl/ns1/orders");
    private final MetaValue v0 = value("v0");
    private final MetaValue vA = value("vA");
    private final MetaValue vB = value("vB");

    /** Starts {@code competitor} while {@code pause} holds a commit, then lets the commit go. */
    private <T> Racer<T> competeWhileHeld(
            PausePoints.Pause pause, String name, java.util.concurrent.Callable<T> competitor) {
        Racer<T> racer = race(name, competitor);
        racer.awaitParkedOrDone();
        assertThat(racer.isDone())
                .as(
                        "%s finished while another commit was held between its check and its write:"
                                + " the store lets commits interleave",
                        name)
                .isFalse();
        assertThat(pause.hasArrived()).isTrue();
        pause.release();
        return racer;
    }

    @Test
    void twoWritersInterleavedInsideACommit_secondConflictsWithTheFirstsValue() throws Exception {
        skipWhenTheStoreCannotPause();
        store.create(k, v0);
        PausePoints.Pause pause = pausePoints.arm(RaceHooks.COMMIT_CHECKED);

        Racer<WriteResult> writerA = race("writer A", () -> store.update(k, v0, vA));
        awaitHeld(pause);
        Racer<WriteResult> writerB = competeWhileHeld(pause, "writer B", () -> store.update(k, v0, vB));

        assertThat(writerA.result()).isEqualTo(WriteResult.applied());
        assertThat(writerB.result()).isEqualTo(WriteResult.conflict(Optional.of(vA)));
        assertThat(store.get(k)).contains(vA);
    }

    @Test
    void twoCreatorsInterleavedInsideACommit_secondConflictsWithTheFirstsValue() throws Exception {
        skipWhenTheStoreCannotPause();
        PausePoints.Pause pause = pausePoints.arm(RaceHooks.COMMIT_CHECKED);

        Racer<WriteResult> creatorA = race("creator A", () -> store.create(k, vA));
        awaitHeld(pause);
        Racer<WriteResult> creatorB = competeWhileHeld(pause, "creator B", () -> store.create(k, vB));

        assertThat(creatorA.result()).isEqualTo(WriteResult.applied());
        assertThat(creatorB.result()).isEqualTo(WriteResult.conflict(Optional.of(vA)));
        assertThat(store.get(k)).contains(vA);
    }

    @Test
    void updateStartedWhileADeleteIsHeld_conflictsWithAbsent() throws Exception {
        skipWhenTheStoreCannotPause();
        store.create(k, v0);
        PausePoints.Pause pause = pausePoints.arm(RaceHooks.COMMIT_CHECKED);

        Racer<WriteResult> deleter = race("deleter", () -> store.delete(k, v0));
        awaitHeld(pause);
        Racer<WriteResult> updater = competeWhileHeld(pause, "updater", () -> store.update(k, v0, vB));

        assertThat(deleter.result()).isEqualTo(WriteResult.applied());
        assertThat(updater.result()).isEqualTo(WriteResult.conflict(Optional.empty()));
        assertThat(store.get(k)).isEmpty();
    }

    @Test
    void guardReplacedWhileAGuardedWriteIsHeld_theGuardedWriteAppliesBeforeTheReplacement() throws Exception {
        skipWhenTheStoreCannotPause();
        MetaKey guard = key("lease/leader");
        MetaValue leaseA = value("holder=a;epoch=1");
        MetaValue leaseB = value("holder=b;epoch=2");
        store.create(guard, leaseA);
        store.create(k, v0);
        PausePoints.Pause pause = pausePoints.arm(RaceHooks.COMMIT_CHECKED);

        Racer<GuardedResult> leaderA = race(
                "guarded writer A",
                () -> store.applyGuarded(new GuardedMutation(guard, leaseA, Mutation.update(k, v0, vA))));
        awaitHeld(pause);
        Racer<WriteResult> takeover =
                competeWhileHeld(pause, "lease takeover", () -> store.update(guard, leaseA, leaseB));

        assertThat(leaderA.result()).isEqualTo(GuardedResult.applied());
        assertThat(takeover.result()).isEqualTo(WriteResult.applied());
        assertThat(store.get(guard)).contains(leaseB);
        assertThat(store.get(k)).contains(vA);
    }

    @Test
    void guardedWriteStartedWhileTheGuardReplacementIsHeld_isRejectedAndMovesNothing() throws Exception {
        skipWhenTheStoreCannotPause();
        MetaKey guard = key("lease/leader");
        MetaValue leaseA = value("holder=a;epoch=1");
        MetaValue leaseB = value("holder=b;epoch=2");
        store.create(guard, leaseA);
        store.create(k, v0);
        PausePoints.Pause pause = pausePoints.arm(RaceHooks.COMMIT_CHECKED);

        Racer<WriteResult> takeover = race("lease takeover", () -> store.update(guard, leaseA, leaseB));
        awaitHeld(pause);
        Racer<GuardedResult> staleLeader = competeWhileHeld(
                pause,
                "stale guarded writer",
                () -> store.applyGuarded(new GuardedMutation(guard, leaseA, Mutation.update(k, v0, vA))));

        assertThat(takeover.result()).isEqualTo(WriteResult.applied());
        assertThat(staleLeader.result())
                .as("a guarded write never applies on a replaced guard")
                .isEqualTo(GuardedResult.guardRejected());
        assertThat(store.get(guard)).contains(leaseB);
        assertThat(store.get(k)).contains(v0);
    }

    @Test
    void guardedWritesOfTwoHoldersOfTheSameGuard_onlyTheFirstApplies() throws Exception {
        skipWhenTheStoreCannotPause();
        MetaKey guard = key("lease/leader");
        MetaValue lease = value("holder=a;epoch=1");
        store.create(guard, lease);
        store.create(k, v0);
        PausePoints.Pause pause = pausePoints.arm(RaceHooks.COMMIT_CHECKED);

        Racer<GuardedResult> first = race(
                "first guarded writer",
                () -> store.applyGuarded(new GuardedMutation(guard, lease, Mutation.update(k, v0, vA))));
        awaitHeld(pause);
        Racer<GuardedResult> second = competeWhileHeld(
                pause,
                "second guarded writer",
                () -> store.applyGuarded(new GuardedMutation(guard, lease, Mutation.update(k, v0, vB))));

        assertThat(first.result()).isEqualTo(GuardedResult.applied());
        assertThat(second.result()).isEqualTo(GuardedResult.targetConflict(WriteResult.conflict(Optional.of(vA))));
        assertThat(store.get(k)).contains(vA);
    }

    /** Moves {@code k}'s value {@code v0} to {@code renamed}: delete the old key and create the new one at once. */
    private TransactionResult rename(MetaKey renamed) {
        return store.transact(
                Transaction.builder().delete(k, v0).create(renamed, v0).build());
    }

    @Test
    void renameHeldInsideItsCommit_aWriterOfTheOldKeyWaits_thenConflictsWithAbsent() throws Exception {
        skipWhenTheStoreCannotPause();
        MetaKey renamed = key("tbl/ns1/orders_v2");
        store.create(k, v0);
        PausePoints.Pause pause = pausePoints.arm(RaceHooks.COMMIT_CHECKED);

        Racer<TransactionResult> rename = race("rename", () -> rename(renamed));
        awaitHeld(pause);
        Racer<WriteResult> writer = competeWhileHeld(pause, "writer of the old key", () -> store.update(k, v0, vB));

        assertThat(rename.result()).isEqualTo(TransactionResult.applied());
        assertThat(writer.result()).isEqualTo(WriteResult.conflict(Optional.empty()));
        assertThat(store.get(k)).isEmpty();
        assertThat(store.get(renamed)).contains(v0);
    }

    @Test
    void renameHeldInsideItsCommit_aCreatorOfTheNewKeyWaits_thenConflictsWithTheMovedValue() throws Exception {
        skipWhenTheStoreCannotPause();
        MetaKey renamed = key("tbl/ns1/orders_v2");
        store.create(k, v0);
        PausePoints.Pause pause = pausePoints.arm(RaceHooks.COMMIT_CHECKED);

        Racer<TransactionResult> rename = race("rename", () -> rename(renamed));
        awaitHeld(pause);
        Racer<WriteResult> creator = competeWhileHeld(pause, "creator of the new key", () -> store.create(renamed, vB));

        assertThat(rename.result()).isEqualTo(TransactionResult.applied());
        assertThat(creator.result()).isEqualTo(WriteResult.conflict(Optional.of(v0)));
        assertThat(store.get(renamed)).contains(v0);
    }

    @Test
    void writerOfTheOldKeyHeld_aRenameStartedMeanwhile_failsOnTheOldKeyAndMovesNothing() throws Exception {
        skipWhenTheStoreCannotPause();
        MetaKey renamed = key("tbl/ns1/orders_v2");
        store.create(k, v0);
        PausePoints.Pause pause = pausePoints.arm(RaceHooks.COMMIT_CHECKED);

        Racer<WriteResult> writer = race("writer of the old key", () -> store.update(k, v0, vA));
        awaitHeld(pause);
        Racer<TransactionResult> rename = competeWhileHeld(pause, "rename", () -> rename(renamed));

        assertThat(writer.result()).isEqualTo(WriteResult.applied());
        assertThat(rename.result())
                .isEqualTo(TransactionResult.notApplied(List.of(TransactionFailure.found(k, Optional.of(vA)))));
        assertThat(store.get(k)).contains(vA);
        assertThat(store.get(renamed)).isEmpty();
    }

    @Test
    void creatorOfTheNewKeyHeld_aRenameStartedMeanwhile_failsOnTheNewKeyAndMovesNothing() throws Exception {
        skipWhenTheStoreCannotPause();
        MetaKey renamed = key("tbl/ns1/orders_v2");
        store.create(k, v0);
        PausePoints.Pause pause = pausePoints.arm(RaceHooks.COMMIT_CHECKED);

        Racer<WriteResult> creator = race("creator of the new key", () -> store.create(renamed, vB));
        awaitHeld(pause);
        Racer<TransactionResult> rename = competeWhileHeld(pause, "rename", () -> rename(renamed));

        assertThat(creator.result()).isEqualTo(WriteResult.applied());
        assertThat(rename.result())
                .isEqualTo(TransactionResult.notApplied(List.of(TransactionFailure.found(renamed, Optional.of(vB)))));
        assertThat(store.get(k)).contains(v0);
        assertThat(store.get(renamed)).contains(vB);
    }
}
