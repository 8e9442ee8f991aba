package io.lake.meta.cli.demo;

import io.lake.meta.registry.RegistryWriteResult;
import io.lake.meta.registry.TableId;
import io.lake.meta.registry.TableRegistry;

/** Registers the demo's tables with the table registry, and shows a second registration losing. */
final class RegisterTablesScene implements DemoScene {

    @Override
    public String title() {
        return "Register tables";
    }

    @Override
    public void play(DemoContext demo) {
        demo.say("A table registration is a versioned JSON record under tbl/<namespace>/<name>.");
        demo.say("register is a create: it applies only while the key is absent.");
        TableRegistry registry = TableRegistry.over(demo.store(), demo.clock());
        for (TableId table : Tables.ALL) {
            RegistryWriteResult result = registry.register(table, Tables.spec(table));
            demo.step("register " + table.key(), result.isApplied() ? "applied" : "conflict");
            demo.check(result.isApplied(), "registering " + table + " to apply");
        }
        demo.say("  " + Tables.ORDERS_KEY + " = "
                + DemoContext.text(demo.store().get(Tables.ORDERS_KEY).orElseThrow()));
        RegistryWriteResult again = registry.register(Tables.ORDERS, Tables.spec(Tables.ORDERS));
        demo.step(
                "register " + Tables.ORDERS_KEY + " again",
                again.isConflict()
                        ? "conflict, current registration "
                                + again.registration().map(Tables::describe).orElse("absent")
                        : "applied");
        demo.check(
                again.isConflict() && again.registration().orElseThrow().generation() == 1,
                "a second registration of " + Tables.ORDERS + " to conflict with generation 1");
    }
}
