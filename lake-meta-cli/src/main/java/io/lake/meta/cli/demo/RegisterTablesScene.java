package io.lake.meta.cli.demo;

import io.lake.meta.WriteResult;

/** Registers the demo's tables with conditional creates, and shows a second create losing. */
final class RegisterTablesScene implements DemoScene {

    @Override
    public String title() {
        return "Register tables";
    }

    @Override
    public void play(DemoContext demo) {
        demo.say("A table record is a JSON value under tbl/<namespace>/<name>.");
        demo.say("create applies only while the key is absent.");
        for (String[] table : Tables.ALL) {
            WriteResult result = demo.store().create(Tables.key(table[0], table[1]), Tables.record(table[0], table[1], 1));
            demo.step("create " + Tables.key(table[0], table[1]), DemoContext.outcome(result));
            demo.check(result.isApplied(), "creating " + table[1] + " to apply");
        }
        WriteResult again = demo.store().create(Tables.ORDERS, Tables.record(Tables.SALES, "orders", 1));
        demo.step("create " + Tables.ORDERS + " again", DemoContext.outcome(again));
        demo.check(again.isConflict(), "a second create of " + Tables.ORDERS + " to conflict");
    }
}
