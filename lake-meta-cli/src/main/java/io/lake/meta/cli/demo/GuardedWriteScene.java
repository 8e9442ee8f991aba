package io.lake.meta.cli.demo;

import io.lake.meta.GuardedMutation;
import io.lake.meta.GuardedResult;
import io.lake.meta.MetaKey;
import io.lake.meta.MetaValue;
import io.lake.meta.Mutation;
import io.lake.meta.WriteResult;

/** A lease-guarded write that applies, then one that a stale guard stops. */
final class GuardedWriteScene implements DemoScene {

    static final MetaKey LEASE = MetaKey.of("lease/catalog");
    /** The catalog's current snapshot, which only the catalog's leader may move. */
    static final MetaKey SNAPSHOT = MetaKey.of("catalog/current-snapshot");

    @Override
    public String title() {
        return "Guarded writes";
    }

    @Override
    public void play(DemoContext demo) {
        demo.say("A guarded write changes its target only while a guard key holds exactly the");
        demo.say("expected bytes: here, the lease record of the node that believes it leads.");
        MetaValue leaseOfA = MetaValue.utf8("{\"holder\":\"node-a\",\"epoch\":1}");
        WriteResult acquired = demo.store().create(LEASE, leaseOfA);
        demo.step("node-a: create " + LEASE + " (epoch 1)", DemoContext.outcome(acquired));
        demo.say("  " + LEASE + " = " + DemoContext.text(leaseOfA));
        demo.check(acquired.isApplied(), "node-a to take the free lease");

        MetaValue snapshot3 = snapshot(3);
        MetaValue snapshot4 = snapshot(4);
        GuardedResult created =
                demo.store().applyGuarded(new GuardedMutation(LEASE, leaseOfA, Mutation.create(SNAPSHOT, snapshot3)));
        demo.step("node-a, guard epoch 1: snapshot 3", DemoContext.outcome(created));
        demo.check(created.isApplied(), "node-a's guarded create to apply");
        GuardedResult accepted = demo.store()
                .applyGuarded(new GuardedMutation(LEASE, leaseOfA, Mutation.update(SNAPSHOT, snapshot3, snapshot4)));
        demo.step("node-a, guard epoch 1: snapshot 3 -> 4", DemoContext.outcome(accepted));
        demo.check(accepted.isApplied(), "node-a's guarded update to apply");

        MetaValue leaseOfB = MetaValue.utf8("{\"holder\":\"node-b\",\"epoch\":2}");
        WriteResult takeover = demo.store().update(LEASE, leaseOfA, leaseOfB);
        demo.step("node-b takes over: update " + LEASE, DemoContext.outcome(takeover));
        demo.say("  " + LEASE + " = " + DemoContext.text(leaseOfB));
        demo.check(takeover.isApplied(), "node-b's takeover to apply");

        GuardedResult rejected = demo.store()
                .applyGuarded(new GuardedMutation(LEASE, leaseOfA, Mutation.update(SNAPSHOT, snapshot4, snapshot(5))));
        demo.step("node-a, stale guard epoch 1: snapshot 4 -> 5", DemoContext.outcome(rejected));
        demo.check(rejected.outcome() == GuardedResult.Outcome.GUARD_REJECTED, "node-a's stale guard to be rejected");

        MetaValue after = demo.store().get(SNAPSHOT).orElseThrow();
        demo.step("get " + SNAPSHOT, DemoContext.text(after));
        demo.check(after.equals(snapshot4), SNAPSHOT + " to still hold snapshot 4");
        demo.say("The target did not move: it still holds snapshot 4, written under node-a's valid lease.");
    }

    private static MetaValue snapshot(int id) {
        return MetaValue.utf8("{\"snapshot\":" + id + ",\"by\":\"node-a\"}");
    }
}
