package io.lake.meta.testkit.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.lake.meta.Condition;
import io.lake.meta.FencedException;
import io.lake.meta.GuardedMutation;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.Transaction;
import io.lake.meta.fenced.FencedMetaStore;
import io.lake.meta.lease.LeaderElection;
import io.lake.meta.lease.LeaseAuthority;
import io.lake.meta.lease.LeaseGuard;
import io.lake.meta.maintenance.MaintenanceAction;
import io.lake.meta.maintenance.MaintenanceSweeper;
import io.lake.meta.maintenance.TableLock;
import io.lake.meta.maintenance.TickStatistics;
import io.lake.meta.ops.OperationJournal;
import io.lake.meta.ops.OperationRecord;
import io.lake.meta.registry.TableId;
import io.lake.meta.registry.TableRegistration;
import io.lake.meta.registry.TableRegistry;
import io.lake.meta.testkit.ContractGroup;
import io.lake.meta.testkit.lease.CountingMetaStore;
import io.lake.meta.testkit.lease.ManualTicker;
import io.lake.meta.testkit.maintenance.InProcessTableLocks;
import io.lake.meta.testkit.maintenance.RecordingMaintainer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Part of {@link FencedPublicationSuite}: every recipe write. */
@ContractGroup("every recipe write")
abstract class PublicationEveryRecipeWriteContract extends PublicationSupport {

    @SuppressWarnings("try") // a resource held for its block is what the block relies on
    @Test
    void reachesTheBackendGuardedByTheLeasesCurrentBytes_neverAsAPlainWrite() {
        ManualTicker ticker = new ManualTicker();
        LeaderElection a = leader("node-a", ticker);
        CountingMetaStore counting = new CountingMetaStore(store);
        MetaStore fencedA = fenced(counting, a);
        TableRegistry registry = TableRegistry.over(fencedA, wall);
        OperationJournal journal = journal(fencedA, a);
        TableId orders = TableId.of("sales", "orders");
        TableId gone = TableId.of("sales", "gone");
        RecordingMaintainer maintainer = new RecordingMaintainer();
        InProcessTableLocks locks = new InProcessTableLocks(fencedA);
        MaintenanceSweeper sweeper = sweeper(fencedA, locks, maintainer);
        Map<String, OperationRecord> ops = new LinkedHashMap<>();

        List<WritePath> paths = List.of(
                new WritePath("register", () -> registry.register(orders, SPEC)),
                new WritePath(
                        "update",
                        () -> registry.update(registry.get(orders).orElseThrow(), SPEC.withProperty("tier", "gold"))),
                new WritePath("register another", () -> registry.register(gone, SPEC)),
                new WritePath("drop", () -> registry.drop(registry.get(gone).orElseThrow())),
                new WritePath(
                        "supersede", () -> registry.supersede(registry.get(gone).orElseThrow(), SPEC)),
                new WritePath(
                        "drop again", () -> registry.drop(registry.get(gone).orElseThrow())),
                new WritePath("maintenance action", () -> {
                    maintainer.answering(
                            r -> MaintenanceAction.updateSpec(r.spec().withProperty("compacted", "1")));
                    try (TableLock skipGone = locks.holdElsewhere(gone)) {
                        assertThat(sweepOnePass(sweeper).stream()
                                        .mapToInt(TickStatistics::updated)
                                        .sum())
                                .isEqualTo(1);
                    }
                    maintainer.answering(r -> MaintenanceAction.none());
                }),
                new WritePath("tombstone cleanup", () -> {
                    try (TableLock skipOrders = locks.holdElsewhere(orders)) {
                        assertThat(sweepOnePass(sweeper).stream()
                                        .mapToInt(TickStatistics::purged)
                                        .sum())
                                .isEqualTo(1);
                    }
                }),
                new WritePath(
                        "begin",
                        () -> ops.put(
                                "op-1",
                                journal.begin("acme", "op-1", "sha256:01").record())),
                new WritePath("complete", () -> journal.complete(Objects.requireNonNull(ops.get("op-1")), "done")),
                new WritePath(
                        "begin another",
                        () -> ops.put(
                                "op-2",
                                journal.begin("acme", "op-2", "sha256:02").record())),
                new WritePath("abandon", () -> journal.abandon(Objects.requireNonNull(ops.get("op-2")), "declined")),
                new WritePath("journal garbage collection", () -> {
                    wall.advance(RETENTION);
                    assertThat(OperationJournalSuite.collectAll(journal, OperationJournal.inTenant("acme", 10)))
                            .isEqualTo(2);
                }));

        for (int i = 0; i < paths.size(); i++) {
            WritePath path = paths.get(i);
            if (i == paths.size() / 2) { // a renewal in the middle: later writes must carry the new bytes
                ticker.advance(RENEW);
                a.campaignOnce();
            }
            MetaValue leaseNow = leaseBytes();
            int guardedBefore = counting.guardedWrites().size();
            int transactionsBefore = counting.transactions().size();

            path.write().run();

            List<GuardedMutation> guarded = counting.guardedWrites()
                    .subList(guardedBefore, counting.guardedWrites().size());
            List<Transaction> transactions = counting.transactions()
                    .subList(transactionsBefore, counting.transactions().size());
            assertThat(guarded.size() + transactions.size())
                    .as("%s reached the backend", path.name())
                    .isPositive();
            for (GuardedMutation sent : guarded) {
                assertThat(sent.guardKey())
                        .as("%s is guarded by the lease", path.name())
                        .isEqualTo(LEASE_KEY);
                assertThat(sent.expectedGuard())
                        .as("%s carries the lease's current bytes", path.name())
                        .isEqualTo(leaseNow);
            }
            for (Transaction sent : transactions) {
                assertThat(sent.conditions())
                        .as("%s is conditioned on the lease's current bytes", path.name())
                        .contains(Condition.holds(LEASE_KEY, leaseNow));
            }
            assertThat(counting.plainWrites())
                    .as("%s sent no plain write", path.name())
                    .isEmpty();
        }
        assertThat(registry.get(orders).orElseThrow().properties()).containsEntry("compacted", "1");
        assertThat(registry.get(gone)).isEmpty();
        assertThat(maintainer.cleanedUp()).extracting(TableRegistration::id).containsExactly(gone);
        assertThat(contents("ops")).isEmpty();
    }

    @Test
    void afterATakeover_theOldLeadersWritesReachTheStore_andMoveNothing_andNoCleanupRuns() {
        LeaderElection a = leader("node-a", new ManualTicker()); // a's ticker never moves: it still believes it leads
        MetaStore fencedOfA = fenced(store, a);
        TableRegistry setup = TableRegistry.over(fencedOfA, wall);
        TableId live = TableId.of("sales", "live");
        TableId dropped = TableId.of("sales", "dropped");
        TableId purging = TableId.of("sales", "purging");
        TableRegistration liveRegistration =
                setup.register(live, SPEC).registration().orElseThrow();
        TableRegistration droppedRegistration = setup.drop(
                        setup.register(dropped, SPEC).registration().orElseThrow())
                .registration()
                .orElseThrow();
        TableRegistration purgingRegistration = setup.startPurge(
                        setup.drop(setup.register(purging, SPEC).registration().orElseThrow())
                                .registration()
                                .orElseThrow())
                .registration()
                .orElseThrow();
        OperationJournal setupJournal = journal(fencedOfA, a);
        OperationRecord running =
                setupJournal.begin("acme", "running", "sha256:01").record();
        setupJournal.complete(setupJournal.begin("acme", "old", "sha256:02").record(), "done");
        wall.advance(RETENTION);
        LeaseGuard guardOfA = a.currentGuard().orElseThrow();
        takeOver("node-b");
        Map<MetaKey, MetaValue> before = contents("tbl", "ops", "lease");

        // The worst case: node-a never learns it was deposed (it ignores every rejection), so
        // each write is built, sent, and must be refused by the store itself.
        LeaseAuthority stubbornA = new LeaseAuthority() {
            @Override
            public MetaKey leaseKey() {
                return LEASE_KEY;
            }

            @Override
            public Optional<LeaseGuard> currentGuard() {
                return Optional.of(guardOfA);
            }
        };
        CountingMetaStore counting = new CountingMetaStore(store);
        MetaStore staleA = FencedMetaStore.over(counting, stubbornA);
        TableRegistry registry = TableRegistry.over(staleA, wall);
        OperationJournal journal = OperationJournal.builder()
                .store(staleA)
                .authority(stubbornA)
                .clock(wall)
                .retention(RETENTION)
                .build();
        RecordingMaintainer maintainer = new RecordingMaintainer()
                .answering(r -> MaintenanceAction.updateSpec(r.spec().withProperty("compacted", "1")));
        InProcessTableLocks locks = new InProcessTableLocks(staleA);
        MaintenanceSweeper sweeper = sweeper(staleA, locks, maintainer);
        List<WritePath> paths = List.of(
                new WritePath("register", () -> registry.register(TableId.of("sales", "new"), SPEC)),
                new WritePath("update", () -> registry.update(liveRegistration, SPEC.withProperty("x", "y"))),
                new WritePath("drop", () -> registry.drop(liveRegistration)),
                new WritePath("supersede", () -> registry.supersede(droppedRegistration, SPEC)),
                new WritePath("start purge", () -> registry.startPurge(droppedRegistration)),
                new WritePath("delete tombstone", () -> registry.deleteTombstone(purgingRegistration)),
                new WritePath("maintenance action", () -> sweepOnly(sweeper, locks, live, dropped, purging)),
                new WritePath("tombstone cleanup", () -> sweepOnly(sweeper, locks, dropped, live, purging)),
                new WritePath("interrupted cleanup", () -> sweepOnly(sweeper, locks, purging, live, dropped)),
                new WritePath("begin", () -> journal.begin("acme", "new", "sha256:03")),
                new WritePath("complete", () -> journal.complete(running, "late")),
                new WritePath("abandon", () -> journal.abandon(running, "late")),
                new WritePath(
                        "journal garbage collection",
                        () -> OperationJournalSuite.collectAll(journal, OperationJournal.inTenant("acme", 10))));

        for (WritePath path : paths) {
            int sentBefore =
                    counting.guardedWrites().size() + counting.transactions().size();

            assertThatThrownBy(path.write()::run).as(path.name()).isInstanceOf(FencedException.class);

            assertThat(counting.guardedWrites().size() + counting.transactions().size())
                    .as("%s reached the store, which refused it", path.name())
                    .isGreaterThan(sentBefore);
        }
        assertThat(counting.guardedWrites())
                .extracting(GuardedMutation::expectedGuard)
                .containsOnly(guardOfA.leaseBytes());
        assertThat(counting.transactions())
                .allSatisfy(
                        t -> assertThat(t.conditions()).contains(Condition.holds(LEASE_KEY, guardOfA.leaseBytes())));

        assertThat(contents("tbl", "ops", "lease")).as("nothing moved").isEqualTo(before);
        assertThat(maintainer.maintained())
                .as("a maintainer may read, but its action was refused")
                .hasSize(1);
        assertThat(maintainer.cleanedUp())
                .as("no cleanup ran for the deposed leader")
                .isEmpty();
        assertThat(counting.plainWrites()).isEmpty();
    }
}
