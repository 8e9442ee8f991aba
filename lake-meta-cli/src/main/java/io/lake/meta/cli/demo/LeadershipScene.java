package io.lake.meta.cli.demo;

import io.lake.meta.FencedException;
import io.lake.meta.GuardedMutation;
import io.lake.meta.GuardedResult;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaStore;
import io.lake.meta.MetaValue;
import io.lake.meta.WriteResult;
import io.lake.meta.fenced.FencedMetaStore;
import io.lake.meta.lease.LeaderElection;
import io.lake.meta.lease.LeadershipStatus;
import io.lake.meta.lease.LeaseRecord;
import io.lake.meta.spi.ForwardingMetaStore;
import java.time.Duration;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * Two candidates elect a leader on a lease key; the leader pauses with a write in flight, the
 * other takes over, and the stale leader's write is refused by the store. Time is simulated, so
 * the scene plays the same on every run.
 */
final class LeadershipScene implements DemoScene {

    static final MetaKey LEASE = MetaKey.of("lease/compactor");
    static final MetaKey CURSOR = MetaKey.of("job/compaction/cursor");
    private static final Duration LEASE_DURATION = Duration.ofSeconds(10);

    @Override
    public String title() {
        return "Leader election and a fenced store";
    }

    @Override
    public void play(DemoContext demo) {
        MetaStore store = demo.store();
        DemoTime time = demo.clock();
        HeldRequests network = new HeldRequests(store);
        try (LeaderElection a = election(store, "node-a", time);
                LeaderElection b = election(store, "node-b", time)) {
            demo.say("node-a and node-b campaign for " + LEASE + " (lease 10 s). Every write of the");
            demo.say("leader goes through a fenced store: a guarded write on the exact lease bytes it installed.");
            FencedMetaStore fencedA = FencedMetaStore.over(network, a);
            FencedMetaStore fencedB = FencedMetaStore.over(store, b);

            LeadershipStatus sa = a.campaignOnce();
            demo.step("node-a: campaign", describe(sa));
            demo.check(sa.equals(new LeadershipStatus.Leader(1)), "node-a to lead in epoch 1");
            LeadershipStatus sb = b.campaignOnce();
            demo.step("node-b: campaign", describe(sb));
            demo.check(sb.equals(new LeadershipStatus.Follower("node-a", 1)), "node-b to follow node-a");

            MetaValue position1 = MetaValue.utf8("{\"by\":\"node-a\",\"position\":1}");
            WriteResult first = fencedA.create(CURSOR, position1);
            demo.step("node-a (fenced): create " + CURSOR, DemoContext.outcome(first));
            demo.check(first.isApplied(), "node-a's fenced write to apply");

            demo.say("node-a sends its next write, then freezes for 15 s (a GC pause) before it arrives.");
            MetaValue position2a = MetaValue.utf8("{\"by\":\"node-a\",\"position\":2}");
            MetaValue position2b = MetaValue.utf8("{\"by\":\"node-b\",\"position\":2}");
            network.holdNextGuardedWrite(() -> {
                time.advance(Duration.ofSeconds(15));
                LeadershipStatus took = b.campaignOnce();
                demo.step("  meanwhile, 15 s later, node-b: campaign", describe(took));
                demo.check(took.equals(new LeadershipStatus.Leader(2)), "node-b to take over in epoch 2");
                WriteResult byB = fencedB.update(CURSOR, position1, position2b);
                demo.step("  node-b (fenced): cursor -> position 2", DemoContext.outcome(byB));
                demo.check(byB.isApplied(), "node-b's fenced write to apply");
            });
            String stale;
            try {
                stale = DemoContext.outcome(fencedA.update(CURSOR, position1, position2a));
            } catch (FencedException e) {
                stale = "refused: FencedException, nothing written";
            }
            demo.step("node-a's delayed write arrives (epoch 1 guard)", stale);
            demo.check(stale.startsWith("refused"), "node-a's stale write to be refused");

            MetaValue cursor = store.get(CURSOR).orElseThrow();
            demo.step("get " + CURSOR, DemoContext.text(cursor));
            demo.check(cursor.equals(position2b), "the cursor to hold node-b's write");
            LeaseRecord lease = LeaseRecord.decode(LEASE, store.get(LEASE).orElseThrow());
            demo.step("get " + LEASE, "holder " + lease.holder().orElse("none") + ", epoch " + lease.epoch());
            demo.check(lease.holder().equals(Optional.of("node-b")) && lease.epoch() == 2, "node-b's lease in epoch 2");
            LeadershipStatus after = a.campaignOnce();
            demo.step("node-a: campaign", describe(after));
            demo.check(after.equals(new LeadershipStatus.Follower("node-b", 2)), "node-a to follow node-b");
        }
        LeaseRecord resigned = LeaseRecord.decode(LEASE, store.get(LEASE).orElseThrow());
        demo.step("close both elections; get " + LEASE, "vacant, epoch " + resigned.epoch());
        demo.check(resigned.isVacant() && resigned.epoch() == 2, "a vacant lease that keeps epoch 2");
        demo.say("The epoch survives the resignation: the next leader will hold epoch 3.");
    }

    private static LeaderElection election(MetaStore store, String id, DemoTime time) {
        return LeaderElection.builder()
                .store(store)
                .leaseKey(LEASE)
                .candidateId(id)
                .leaseDuration(LEASE_DURATION)
                .renewInterval(Duration.ofSeconds(3))
                .clock(time)
                .ticker(time)
                .build();
    }

    private static String describe(LeadershipStatus status) {
        if (status instanceof LeadershipStatus.Leader) {
            return "leader, epoch " + status.epoch();
        }
        if (status instanceof LeadershipStatus.Follower) {
            return "follower of " + ((LeadershipStatus.Follower) status).holder() + ", epoch " + status.epoch();
        }
        return "vacant, epoch " + status.epoch();
    }

    /** The network between node-a and the store: can hold one guarded write while the world moves on. */
    private static final class HeldRequests extends ForwardingMetaStore {
        private @Nullable Runnable meanwhile;

        HeldRequests(MetaStore store) {
            super(store);
        }

        void holdNextGuardedWrite(Runnable meanwhile) {
            this.meanwhile = meanwhile;
        }

        @Override
        public GuardedResult applyGuarded(GuardedMutation mutation) {
            Runnable r = meanwhile;
            meanwhile = null;
            if (r != null) {
                r.run();
            }
            return super.applyGuarded(mutation);
        }

        @Override
        public void close() {
            // the demo's store is closed by the demo
        }
    }
}
