package io.lake.meta.cli.demo;

import io.lake.meta.MetaValue;
import io.lake.meta.WriteResult;

/** Two writers race to update one table record with exact-bytes compare-and-set. */
final class CompareAndSetScene implements DemoScene {

    @Override
    public String title() {
        return "Compare-and-set";
    }

    @Override
    public void play(DemoContext demo) {
        demo.say("Writers A and B both read " + Tables.ORDERS + " (version 1); each updates it");
        demo.say("only if it still holds exactly the bytes that writer read.");
        MetaValue read = demo.store().get(Tables.ORDERS).orElseThrow();
        demo.step("get " + Tables.ORDERS, DemoContext.text(read));

        MetaValue byA = Tables.record(Tables.SALES, "orders", 2);
        WriteResult a = demo.store().update(Tables.ORDERS, read, byA);
        demo.step("A: update expecting version 1 -> version 2", DemoContext.outcome(a));
        demo.check(a.isApplied(), "A's update to apply");

        WriteResult b = demo.store().update(Tables.ORDERS, read, Tables.record(Tables.SALES, "orders", 2));
        demo.step("B: update expecting version 1 (now stale)", DemoContext.outcome(b));
        demo.check(b.isConflict(), "B's stale update to conflict");
        demo.say("B's conflict reports the current value, so B retries from it without another read:");

        MetaValue current = b.isCurrentKnown() && b.currentValue().isPresent()
                ? b.currentValue().get()
                : demo.store().get(Tables.ORDERS).orElseThrow();
        WriteResult retry = demo.store().update(Tables.ORDERS, current, Tables.record(Tables.SALES, "orders", 3));
        demo.step("B: update expecting version 2 -> version 3", DemoContext.outcome(retry));
        demo.check(retry.isApplied(), "B's retry to apply");
    }
}
